import { Worker } from 'node:worker_threads';
import type { FakeGitHubState } from '../test/support/fake-github-state.js';
import type { FakeGitHubOptions, FakeGitHubServer } from './fake-github-server.js';

/**
 * The fake GitHub on a worker thread, so the load bench's receiver does not pay for the fake's
 * request handling on its own event loop. Its state lives on that thread: nothing to inspect here.
 */
export function serveBenchGitHubOnThread(state: Partial<FakeGitHubState>, options: FakeGitHubOptions = {}): Promise<FakeGitHubServer> {
  const worker = new Worker(new URL('./fake-github-worker.js', import.meta.url), { workerData: { state, options } });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (baseUrl: string) =>
      resolve({
        baseUrl,
        async close() {
          worker.postMessage('close');
          await exited;
        },
      }),
    );
  });
}

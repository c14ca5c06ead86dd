import { Worker } from 'node:worker_threads';
import type { Delivery } from './deliveries.js';
import type { PacedRun } from './paced-sender.js';

/** sendPaced on a worker thread: the server's event loop (this thread) cannot delay the sends. */
export function sendPacedOnThread(url: string, deliveries: Delivery[], perSecond: number): Promise<PacedRun> {
  const worker = new Worker(new URL('./load-sender-worker.js', import.meta.url), { workerData: { url, deliveries, perSecond } });
  return new Promise((resolve, reject) => {
    let result: PacedRun | undefined;
    worker.once('message', (message: PacedRun) => (result = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (result ? resolve(result) : reject(new Error(`paced sender exited with ${code} before answering`))));
  });
}

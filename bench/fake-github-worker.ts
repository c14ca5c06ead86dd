import { parentPort, workerData } from 'node:worker_threads';
import { newFakeGitHubState, type FakeGitHubState } from '../test/support/fake-github-state.js';
import { serveBenchGitHub, type FakeGitHubOptions } from './fake-github-server.js';

/** Worker-thread entry: the fake GitHub on an event loop of its own (bench/fake-github-thread.ts). */
const { state, options } = workerData as { state: Partial<FakeGitHubState>; options: FakeGitHubOptions };
const server = await serveBenchGitHub(newFakeGitHubState(state), options);
parentPort?.once('message', () => void server.close().then(() => parentPort?.close()));
parentPort?.postMessage(server.baseUrl);

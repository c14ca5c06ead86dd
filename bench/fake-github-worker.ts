import { parentPort, workerData } from 'node:worker_threads';
import { newFakeGitHubState, type FakeGitHubState } from '../test/support/fake-github-state.js';
import { serveBenchGitHub } from './fake-github-server.js';

/** Worker-thread entry: the fake GitHub on an event loop of its own (bench/fake-github-thread.ts). */
const server = await serveBenchGitHub(newFakeGitHubState(workerData as Partial<FakeGitHubState>));
parentPort?.once('message', () => void server.close().then(() => parentPort?.close()));
parentPort?.postMessage(server.baseUrl);

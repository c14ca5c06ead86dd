import { parentPort } from 'node:worker_threads';
import { serveThread } from '../util/thread-rpc.js';
import { treeMethods } from './tree-work.js';

/** The tree thread (tree-work.ts): whole-tree copies, links, manifests and removals, off the event loop and below its priority. */
if (!parentPort) throw new Error("tree-thread.ts runs only as greenfix's tree thread (tree-work.ts starts it)");
serveThread(parentPort, treeMethods);

import { parentPort } from 'node:worker_threads';
import { getPriority, setPriority } from 'node:os';
import { JOB_NICE, serveThread } from '../util/thread-rpc.js';
import { treeMethods } from './tree-work.js';

/** The tree thread (tree-work.ts): whole-tree copies, links, manifests and removals, off the event loop. */
if (!parentPort) throw new Error("tree-thread.ts runs only as greenfix's tree thread (tree-work.ts starts it)");
// Bulk copies and hashes yield the CPU to the thread that answers webhooks, as the process thread does.
setPriority(Math.min(19, getPriority() + JOB_NICE));
serveThread(parentPort, treeMethods);

import { parentPort } from 'node:worker_threads';
import { spawnProcess, type ProcessRequest } from './spawn-process.js';
import { serveThread } from './thread-rpc.js';

/**
 * The process thread (run-process.ts): each request runs with `spawnProcess`, as the caller's
 * thread would have run it. Every process it starts inherits the thread's nice value (10 above
 * greenfix's, `serveThread`): a job's commands, git and their children yield the CPU to the thread
 * that answers webhooks.
 */
if (!parentPort) throw new Error("process-thread.ts runs only as greenfix's process thread (run-process.ts starts it)");
serveThread(parentPort, {
  spawn: (req: Omit<ProcessRequest, 'signal'>, signal: AbortSignal) => {
    // Buffers arrive as Uint8Arrays (structured clone).
    const extraFds = req.extraFds?.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    return spawnProcess({ ...req, ...(extraFds ? { extraFds } : {}), signal });
  },
});

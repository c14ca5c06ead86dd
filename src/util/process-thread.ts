import { parentPort } from 'node:worker_threads';
import { spawnProcess, type ProcessRequest } from './spawn-process.js';
import { serveThread } from './thread-rpc.js';

/** The process thread (run-process.ts): each request runs with `spawnProcess`, as the caller's thread would have run it. */
if (!parentPort) throw new Error("process-thread.ts runs only as greenfix's process thread (run-process.ts starts it)");
serveThread(parentPort, {
  spawn: (req: Omit<ProcessRequest, 'signal'>, signal: AbortSignal) => {
    // Buffers arrive as Uint8Arrays (structured clone).
    const extraFds = req.extraFds?.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    return spawnProcess({ ...req, ...(extraFds ? { extraFds } : {}), signal });
  },
});

import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { spawnProcess, type ProcessRequest } from './spawn-process.js';
import { JOB_NICE, serveThread } from './thread-rpc.js';

/**
 * The process thread (run-process.ts): each request runs with `spawnProcess`, as the caller's
 * thread would have run it. The thread runs 10 nicer than greenfix, and so does every process it starts (a
 * child inherits its thread's nice value): a job's commands, git and their children yield the CPU
 * to greenfix's own thread, which answers webhooks (docs/decisions.md "A job's processes run 10
 * nicer than greenfix").
 */
if (!parentPort) throw new Error("process-thread.ts runs only as greenfix's process thread (run-process.ts starts it)");
setPriority(Math.min(19, getPriority() + JOB_NICE));
serveThread(parentPort, {
  spawn: (req: Omit<ProcessRequest, 'signal'>, signal: AbortSignal) => {
    // Buffers arrive as Uint8Arrays (structured clone).
    const extraFds = req.extraFds?.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    return spawnProcess({ ...req, ...(extraFds ? { extraFds } : {}), signal });
  },
});

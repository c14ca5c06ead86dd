import { spawnProcess, type ProcessRequest } from './spawn-process.js';
import { exitWithParent, hostPort } from './process-host.js';
import { serveThread } from './thread-rpc.js';

/**
 * The process host (run-process.ts): each request runs with `spawnProcess`, as the caller's thread
 * would have run it, forked from this small process rather than from greenfix (process-host.ts).
 * Every process it starts inherits its nice value (10 above greenfix's, `serveThread`): a job's
 * commands, git and their children yield the CPU to the thread that answers webhooks. It exits,
 * killing what it runs, when greenfix is gone.
 */
const port = hostPort();
if (!port) throw new Error("process-thread.ts runs only as greenfix's process host (run-process.ts starts it)");
const abortAll = serveThread(port, {
  spawn: (req: Omit<ProcessRequest, 'signal'>, signal: AbortSignal) => {
    // Buffers arrive as Uint8Arrays (structured clone).
    const extraFds = req.extraFds?.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    return spawnProcess({ ...req, ...(extraFds ? { extraFds } : {}), signal });
  },
});
exitWithParent(abortAll);

import { RegularFileError, type RegularFileRefusal } from './regular-file.js';
import { spawnProcess, type ProcessRequest, type ProcessResult } from './spawn-process.js';
import { ThreadClient, threadScript, type WireError } from './thread-rpc.js';

/**
 * The process host, one per greenfix process, started by the first request (docs/decisions.md
 * "Processes start from a small process"). Run from TypeScript sources (the test runner) there
 * is no script for it, and processes start from the calling thread, as `spawnProcess` does.
 */
const script = threadScript(import.meta.url, 'util/process-thread.js');
const thread = script ? new ThreadClient(script, reviveRefusal, 'process') : undefined;

/**
 * Runs one process in its own process group (`spawnProcess`'s contract: output capped while it
 * streams, the whole group killed on timeout, abort or the leader's exit), started from greenfix's
 * process host: Node forks the whole calling process to start a child and blocks the forking
 * thread until the child has exec'd — tens of milliseconds on a loaded machine that the event loop
 * answering webhooks would otherwise wait —, and a fork of greenfix itself also stalls greenfix's
 * every thread on its memory map's lock while the kernel copies its page tables (process-host.ts).
 */
export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  if (!thread) return spawnProcess(req);
  const { signal, ...rest } = req;
  return thread.call('spawn', rest, signal) as Promise<ProcessResult>;
}

/**
 * Starts the process host now rather than at the first request: a command that starts processes
 * as soon as it has loaded (`greenfix fix` prepares its worktree with git) lets the host boot
 * (~50 ms, a Node process of its own) while it loads its own code, instead of waiting for it.
 */
export function startProcessHost(): void {
  thread?.start();
}

function reviveRefusal(w: WireError): Error | null {
  const { reason, path } = w.fields;
  if (w.name !== 'RegularFileError' || typeof reason !== 'string' || typeof path !== 'string') return null;
  return new RegularFileError(reason as RegularFileRefusal, path, w.message);
}

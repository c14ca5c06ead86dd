import { RegularFileError, type RegularFileRefusal } from './regular-file.js';
import { spawnProcess, type ProcessRequest, type ProcessResult } from './spawn-process.js';
import { ThreadClient, threadScript, type WireError } from './thread-rpc.js';

/**
 * The process thread, one per process, started by the first request (docs/decisions.md
 * "Processes start from their own thread"). Run from TypeScript sources (the test runner) there
 * is no script for it, and processes start from the calling thread, as `spawnProcess` does.
 */
const script = threadScript(import.meta.url, 'util/process-thread.js');
const thread = script ? new ThreadClient(script, reviveRefusal) : undefined;

/**
 * Runs one process in its own process group (`spawnProcess`'s contract: output capped while it
 * streams, the whole group killed on timeout, abort or the leader's exit), started from greenfix's
 * process thread: Node forks the whole process to start a child and blocks the forking thread
 * until the child has exec'd, and on a loaded machine that is tens of milliseconds the event loop
 * answering webhooks would otherwise wait.
 */
export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  if (!thread) return spawnProcess(req);
  const { signal, ...rest } = req;
  return thread.call('spawn', rest, signal) as Promise<ProcessResult>;
}

function reviveRefusal(w: WireError): Error | null {
  const { reason, path } = w.fields;
  if (w.name !== 'RegularFileError' || typeof reason !== 'string' || typeof path !== 'string') return null;
  return new RegularFileError(reason as RegularFileRefusal, path, w.message);
}

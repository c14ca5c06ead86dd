import { ProcessLauncher } from './process-launcher.js';
import { spawnProcess, type ProcessRequest, type ProcessResult } from './spawn-process.js';

/**
 * The process-wide process thread, started by the first request. Compiled greenfix (dist/) has
 * the thread's script beside this file; run from TypeScript sources (the test runner), there is no
 * script a thread could load, and processes start from the calling thread, as `spawnProcess` does.
 */
const launcher = import.meta.url.endsWith('.js') ? new ProcessLauncher(new URL('./process-thread.js', import.meta.url)) : undefined;

/**
 * Runs one process in its own process group (`spawnProcess`'s contract: output capped while it
 * streams, the whole group killed on timeout, abort or the leader's exit), started from greenfix's
 * process thread so the caller's event loop never waits for a fork.
 */
export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  return launcher ? launcher.run(req) : spawnProcess(req);
}

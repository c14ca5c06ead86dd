import { existsSync } from 'node:fs';
import { ProcessLauncher } from './process-launcher.js';
import { spawnProcess, type ProcessRequest, type ProcessResult } from './spawn-process.js';

/**
 * The process-wide process thread, started by the first request. Its script is tsc's
 * `src/util/process-thread.js` under the same `src/` as this code, which may be tsc's file beside
 * it or a bundle's chunk (`src/cli/…`). Run from TypeScript sources (the test runner), there is no
 * script a thread could load, and processes start from the calling thread, as `spawnProcess` does.
 */
const launcher = import.meta.url.endsWith('.js') ? new ProcessLauncher(threadScript(import.meta.url)) : undefined;

function threadScript(moduleUrl: string): URL {
  for (let dir = new URL('.', moduleUrl); dir.pathname !== '/'; dir = new URL('..', dir)) {
    if (dir.pathname.endsWith('/src/')) {
      const script = new URL('util/process-thread.js', dir);
      if (existsSync(script)) return script;
    }
  }
  throw new Error(`greenfix's process thread script (src/util/process-thread.js) is missing above ${moduleUrl}: build greenfix again (npm run build)`);
}

/**
 * Runs one process in its own process group (`spawnProcess`'s contract: output capped while it
 * streams, the whole group killed on timeout, abort or the leader's exit), started from greenfix's
 * process thread so the caller's event loop never waits for a fork.
 */
export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  return launcher ? launcher.run(req) : spawnProcess(req);
}

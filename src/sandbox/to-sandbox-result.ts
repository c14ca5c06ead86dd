import type { ProcessResult } from '../util/spawn-process.js';
import type { SandboxResult } from './types.js';

/** The sandbox's view of a finished process (drops the runner-only byte count). */
export function toSandboxResult(r: ProcessResult): SandboxResult {
  return {
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    aborted: r.aborted,
    stdout: r.stdout,
    stderr: r.stderr,
    truncated: r.truncated,
    durationMs: r.durationMs,
  };
}

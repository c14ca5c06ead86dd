import { clipHeadTail } from '../../util/clip.js';
import type { SandboxResult } from '../../sandbox/types.js';

/** `exit code: N`, or how the command was killed. */
export function describeExit(r: SandboxResult, timeoutSec: number): string {
  if (r.limit?.kind === 'memory') return `killed: memory limit ${r.limit.limitMb} MB`;
  if (r.limit?.kind === 'disk') return `killed: disk limit ${r.limit.limitMb} MB (the worktree grew past it; the job stops)`;
  if (r.timedOut) return `killed: timed out after ${timeoutSec}s`;
  if (r.aborted) return 'killed: the run was cancelled';
  if (r.exitCode === null) return `killed by signal ${r.signal ?? 'unknown'}`;
  return `exit code: ${r.exitCode}`;
}

/**
 * Exit line, then stdout and stderr each clipped to half the budget; when anything was cut, says
 * where the full output is so the model can read_file the part it needs.
 */
export function formatCommandOutput(r: SandboxResult, timeoutSec: number, budgetChars: number, fullOutput: string): string {
  const room = Math.max(200, Math.floor((budgetChars - 300) / 2));
  const stdout = clipHeadTail(r.stdout, room);
  const stderr = clipHeadTail(r.stderr, room);
  const parts = [describeExit(r, timeoutSec)];
  if (stdout) parts.push(`--- stdout ---\n${stdout.trimEnd()}`);
  if (stderr) parts.push(`--- stderr ---\n${stderr.trimEnd()}`);
  if (!stdout && !stderr) parts.push('(no output)');
  if (r.truncated || stdout !== r.stdout || stderr !== r.stderr) {
    parts.push(`[output clipped; full output in ${fullOutput} (read_file it with offset)]`);
  }
  return parts.join('\n');
}

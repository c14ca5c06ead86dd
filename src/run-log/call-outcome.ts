import type { RunCall } from './run-log.js';

/** What became of a call, in a few words: `ok`, `refused`, `exit 1`, `verified 3f2a…`, `unknown (crash)`. */
export function callOutcome(call: RunCall): string {
  const repaired = call.repair === 'outcome_unknown' ? ' (outcome unknown after a crash)' : call.repair === 'not_started' ? ' (not run: a crash came first)' : call.repair === 're_executed' ? ' (run again after a crash)' : '';
  if (call.ok === null) return 'no result yet';
  if (call.test) {
    const t = call.test;
    if (t.tree) return `✓ exit 0, verified ${t.tree.slice(0, 12)}${repaired}`;
    return `✗ ${t.exitCode === null ? 'not verified' : `exit ${t.exitCode}`}${repaired}`;
  }
  if (call.tool === 'run' && call.output !== null) {
    const m = /^exit code: (\d+)/.exec(call.output) ?? /^(killed[^\n]*)/.exec(call.output);
    if (m?.[1]) return `${call.ok ? '✓' : '✗'} ${/^\d+$/.test(m[1]) ? `exit ${m[1]}` : m[1]}${repaired}`;
  }
  if (call.tool === 'finish') return `${call.ok ? '✓ accepted' : '✗ refused'}${repaired}`;
  return `${call.ok ? '✓ ok' : '✗ error'}${repaired}`;
}

/** Reads, searches, listings and commands: what is summarised first when a log must shrink. */
export function isBackground(call: RunCall): boolean {
  return call.tool !== 'run_tests' && call.tool !== 'edit_file' && call.tool !== 'write_file' && call.tool !== 'finish';
}

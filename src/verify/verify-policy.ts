import { compareReports, type TestComparison } from './compare-reports.js';
import type { TestReport } from './test-report.js';

/** `.github/greenfix.yml` `verify_mode`. */
export type VerifyMode = 'all_pass' | 'no_new_failures';
export const VERIFY_MODES = ['all_pass', 'no_new_failures'] as const;

export interface RunOutcome {
  exitCode: number;
  timedOut: boolean;
  report: TestReport | null;
}

export interface VerifyDecision {
  verified: boolean;
  /** The mode that decided: `all_pass` when `no_new_failures` could not read a report. */
  mode: VerifyMode;
  /** Per-test changes against the baseline; null when either side could not be read. */
  comparison: TestComparison | null;
  /** One sentence for the model and the evidence: why (not) verified. */
  reason: string;
  /** Set when `no_new_failures` fell back to `all_pass`, saying why. */
  fallback: string | null;
}

function list(ids: string[], max = 5): string {
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

/**
 * The verify_mode rule. `all_pass`: the command exits 0 (as always). `no_new_failures`: every
 * test that passed on the base passes (none broken or missing), no new test fails, and at least one
 * test that failed on the base passes now or a new test passes; the exit code may be non-zero.
 * A run that timed out is never verified. `rerun` is the same command run once more on the same
 * tree, done only when `needsRerun` said so: what passes there is flaky, not broken.
 */
export function decideVerification(mode: VerifyMode, base: TestReport | null, run: RunOutcome, rerun?: RunOutcome | null): VerifyDecision {
  const comparison = base && run.report ? compareReports(base, run.report, rerun?.report ?? null) : null;
  const exitOk = !run.timedOut && (run.exitCode === 0 || (!!rerun && !rerun.timedOut && rerun.exitCode === 0));
  let fallback: string | null = null;
  if (mode === 'no_new_failures' && !comparison) {
    fallback = base
      ? 'verify_mode no_new_failures: this run printed no test report greenfix can read, so the whole command must pass (all_pass)'
      : 'verify_mode no_new_failures: the baseline run printed no test report greenfix can read, so the whole command must pass (all_pass)';
  }
  if (mode === 'all_pass' || !comparison) {
    if (exitOk) return { verified: true, mode: 'all_pass', comparison, reason: 'the test command exited 0', fallback };
    const failing = run.report?.tests.filter((t) => t.status === 'failed').map((t) => t.id) ?? [];
    const named = failing.length > 0 ? `: failing ${list(failing)}` : '';
    const onBase = comparison && comparison.stillFailing.length > 0 ? ` (${list(comparison.stillFailing)} failed on the base too)` : '';
    return { verified: false, mode: 'all_pass', comparison, reason: `the test command did not pass${named}${onBase}`, fallback };
  }
  if (run.timedOut) return { verified: false, mode, comparison, reason: 'the test command timed out', fallback };
  if (comparison.broken.length > 0) return { verified: false, mode, comparison, reason: `tests that passed on the base fail now: ${list(comparison.broken)}`, fallback };
  if (comparison.missing.length > 0) return { verified: false, mode, comparison, reason: `tests that passed on the base did not run: ${list(comparison.missing)}`, fallback };
  if (comparison.newFailing.length > 0) return { verified: false, mode, comparison, reason: `new tests fail: ${list(comparison.newFailing)}`, fallback };
  if (run.report && base && run.report.totals.total < base.totals.total && !run.report.listsPassing) {
    return { verified: false, mode, comparison, reason: `fewer tests ran than on the base (${run.report.totals.total} < ${base.totals.total})`, fallback };
  }
  if (exitOk) return { verified: true, mode, comparison, reason: 'the test command exited 0', fallback };
  if (comparison.fixed.length + comparison.newPassing.length === 0) {
    return { verified: false, mode, comparison, reason: 'no test that failed on the base passes now, and no new test passes', fallback };
  }
  const still = comparison.stillFailing.length > 0 ? `; still failing as on the base: ${list(comparison.stillFailing)}` : '';
  return { verified: true, mode, comparison, reason: `no test that passed on the base fails${still}`, fallback };
}

/** Rerun once when a test that passed on the base fails now: it may be flaky rather than broken. */
export function needsRerun(base: TestReport | null, run: RunOutcome): boolean {
  if (!base || !run.report || run.timedOut || run.exitCode === 0) return false;
  return compareReports(base, run.report).broken.length > 0;
}

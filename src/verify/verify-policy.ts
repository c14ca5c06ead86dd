import { compareReports, type TestComparison } from './compare-reports.js';
import { removedTestsProblem } from './removed-tests.js';
import { listNames } from './test-names.js';
import type { TestReport } from './test-report.js';

/** `.github/greenfix.yml` `verify_mode`. */
export type VerifyMode = 'all_pass' | 'no_new_failures';
export const VERIFY_MODES = ['all_pass', 'no_new_failures'] as const;

export interface RunOutcome {
  exitCode: number;
  timedOut: boolean;
  report: TestReport | null;
  /** The run's report files disagreed with what the runner printed (readTestReport): never verified. */
  reportConflict?: string;
}

/** What a repository allows beyond its verify_mode (`.github/greenfix.yml`). */
export interface VerifyOptions {
  /** `tests.allow_removed`: a tree on which base tests were removed or skipped may verify (they are still listed). */
  allowRemovedTests?: boolean;
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

/** "no new failures (verify_mode no_new_failures); still failing: x, y": what a red-but-better tree is. */
export function noNewFailuresSentence(stillFailing: readonly string[]): string {
  const still = stillFailing.length > 0 ? `; still failing: ${listNames(stillFailing)}` : '';
  return `no new failures (verify_mode no_new_failures)${still}`;
}

/**
 * The verify_mode rule. `all_pass`: the command exits 0 (as always). `no_new_failures`: every
 * test that passed on the base passes (none broken), no new test fails, and at least one test
 * that failed on the base passes now or a new test passes — exit code 0 or not. In both modes a
 * test that ran on the base and did not run, or is skipped now, keeps the tree from verifying
 * unless `options.allowRemovedTests` (removed-tests.ts). A run that timed out is never verified.
 * `rerun` is the same command run once more on the same tree, done only when `needsRerun` said
 * so: what passes there is flaky, not broken.
 */
export function decideVerification(mode: VerifyMode, base: TestReport | null, run: RunOutcome, rerun?: RunOutcome | null, options: VerifyOptions = {}): VerifyDecision {
  const comparison = base && run.report ? compareReports(base, run.report, rerun?.report ?? null) : null;
  const exitOk = !run.timedOut && (run.exitCode === 0 || (!!rerun && !rerun.timedOut && rerun.exitCode === 0));
  const removal = removedTestsProblem(comparison, base, run.report);
  const allowed = options.allowRemovedTests === true;
  const allowedNote = removal && allowed ? `; ${removal.allowedNote}` : '';
  let fallback: string | null = null;
  if (mode === 'no_new_failures' && !comparison) {
    fallback = base
      ? 'verify_mode no_new_failures: this run printed no test report greenfix can read, so the whole command must pass (all_pass)'
      : 'verify_mode no_new_failures: the baseline run printed no test report greenfix can read, so the whole command must pass (all_pass)';
  }
  const no = (decidedBy: VerifyMode, reason: string): VerifyDecision => ({ verified: false, mode: decidedBy, comparison, reason, fallback });
  const conflict = run.reportConflict ?? rerun?.reportConflict;
  if (conflict) return no(comparison ? mode : 'all_pass', conflict);
  if (mode === 'all_pass' || !comparison) {
    if (exitOk && removal && !allowed) return no('all_pass', removal.instruction);
    if (exitOk) return { verified: true, mode: 'all_pass', comparison, reason: `the test command exited 0${allowedNote}`, fallback };
    const failing = run.report?.tests.filter((t) => t.status === 'failed').map((t) => t.id) ?? [];
    const named = failing.length > 0 ? `: failing ${listNames(failing, 5)}` : '';
    const onBase = comparison && comparison.stillFailing.length > 0 ? ` (${listNames(comparison.stillFailing, 5)} failed on the base too)` : '';
    return no('all_pass', `the test command did not pass${named}${onBase}`);
  }
  if (run.timedOut) return no(mode, 'the test command timed out');
  if (comparison.broken.length > 0) return no(mode, `tests that passed on the base fail now: ${listNames(comparison.broken, 5)}`);
  if (removal && !allowed) return no(mode, removal.instruction);
  if (comparison.newFailing.length > 0) return no(mode, `new tests fail: ${listNames(comparison.newFailing, 5)}`);
  const unreached = comparison.notRunOnBase.filter((id) => run.report?.tests.some((t) => t.id === id && t.status === 'failed'));
  if (unreached.length > 0) {
    return no(mode, `tests the base run never reached fail now: ${listNames(unreached, 5)} (the base run stopped at a failing target, so they cannot be told apart from new failures)`);
  }
  if (comparison.fixed.length + comparison.newPassing.length === 0) {
    return no(mode, 'no test that failed on the base passes now, and no new test passes: fix a failing test, or add a test that passes');
  }
  if (exitOk) return { verified: true, mode, comparison, reason: `the test command exited 0${allowedNote}`, fallback };
  return { verified: true, mode, comparison, reason: `${noNewFailuresSentence(comparison.stillFailing)}${allowedNote}`, fallback };
}

/** Rerun once when a test that passed on the base fails now: it may be flaky rather than broken. */
export function needsRerun(base: TestReport | null, run: RunOutcome): boolean {
  if (!base || !run.report || run.timedOut || run.exitCode === 0) return false;
  return compareReports(base, run.report).broken.length > 0;
}

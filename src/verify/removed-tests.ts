import type { TestComparison } from './compare-reports.js';
import { listNames } from './test-names.js';
import type { TestReport, TestTotals } from './test-report.js';

/** Base tests that no longer run: what the model is told to undo, or the note when the repository allows it. */
export interface RemovedTests {
  /** The reason a tree is not verified, read by the model: which tests, and what to do. */
  instruction: string;
  /** Appended to a verified tree's reason when `tests.allow_removed` lets it pass. */
  allowedNote: string;
}

const NOT_A_FIX = 'deleting, renaming or skipping a test is not a fix';
const ALLOWED = 'allowed by tests.allow_removed';

const ran = (t: TestTotals) => t.passed + t.failed;

/** By name, when the run lists every test. */
function named(c: TestComparison): RemovedTests | null {
  const removed = c.removed.length > 0 ? `did not run: ${listNames(c.removed)}` : null;
  const skipped = c.nowSkipped.length > 0 ? `now skipped: ${listNames(c.nowSkipped)}` : null;
  if (!removed && !skipped) return null;
  const what = [removed, skipped].filter((p) => p !== null).join('; ');
  const undo = removed && skipped ? 'restore them and remove the skips' : removed ? 'restore them' : 'remove the skips';
  return {
    instruction: `tests that ran on the base ${what} — ${undo} (${NOT_A_FIX})`,
    allowedNote: `tests that ran on the base ${what} (${ALLOWED})`,
  };
}

/** "fewer tests ran than on the base (7 < 8)", by the totals alone; null when as many ran. */
export function fewerTestsRan(base: TestTotals, after: TestTotals): string | null {
  if (after.total < base.total) return `fewer tests ran than on the base (${after.total} < ${base.total})`;
  if (ran(after) < ran(base)) return `fewer tests ran than on the base: ${ran(after)} passed or failed, ${ran(base)} on the base (more are skipped now)`;
  return null;
}

/** By count, when the run names only failures (a summary format). */
function counted(base: TestTotals, after: TestTotals): RemovedTests | null {
  const what = fewerTestsRan(base, after);
  if (!what) return null;
  return { instruction: `${what} — restore the tests that no longer run and remove any new skips (${NOT_A_FIX})`, allowedNote: `${what} (${ALLOWED})` };
}

/**
 * Tests that ran on the base (passed or failed) and did not run, or are skipped, after the change.
 * Named when the run lists every test; a summary-only run can only be counted against the base.
 */
export function removedTestsProblem(c: TestComparison | null, base: TestReport | null, after: TestReport | null): RemovedTests | null {
  if (!c || !base || !after) return null;
  return after.listsPassing ? named(c) : (counted(base.totals, after.totals) ?? named(c));
}

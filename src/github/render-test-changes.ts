import type { BaselineSummary, TestEvidence } from '../verify/test-evidence.js';
import { codeSpan, oneLine } from './markdown.js';

const MAX_NAMED = 25;

function names(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_NAMED).map((id) => codeSpan(oneLine(id, 200)));
  return ids.length > MAX_NAMED ? `${shown.join(', ')} and ${ids.length - MAX_NAMED} more` : shown.join(', ');
}

function row(label: string, ids: readonly string[], emptyText?: string): string | null {
  if (ids.length === 0) return emptyText ? `- ${label}: ${emptyText}` : null;
  return `- ${label} (${ids.length}): ${names(ids)}`;
}

function baselineCounts(b: BaselineSummary, where: string): string {
  if (b.timedOut) return `on ${where}: timed out`;
  if (!b.totals) return `on ${where}: exit code ${b.exitCode ?? 'none'}, no readable report`;
  return `on ${where}: ${b.totals.total} tests, ${b.totals.failed} failing (exit code ${b.exitCode ?? 'none'})`;
}

const ALLOWED = '  *(the repository allows it: `tests.allow_removed: true`)*';

/**
 * Tests that ran on the base and not here, when the rows name none: none, or a count when the
 * output names only failures; and, when some did not run, why the tree verified anyway.
 */
function removedNote(tests: TestEvidence, c: NonNullable<TestEvidence['comparison']>): string[] {
  if (c.removed.length + c.nowSkipped.length > 0) return [ALLOWED];
  const [now, was] = [tests.totals, tests.baseline?.totals];
  if (!now || !was || (now.total >= was.total && now.passed + now.failed >= was.passed + was.failed)) return ['- removed or skipped since the base: none'];
  const counts = `${now.passed + now.failed} of ${now.total} tests ran, ${was.passed + was.failed} of ${was.total} on the base`;
  return [`- removed or skipped since the base: fewer tests ran than on the base (${counts}; the output names only failures)`, ALLOWED];
}

/**
 * Per test, what the change did (DESIGN §4.8): fail → pass, pass → fail and removed or skipped
 * (always shown: they must be empty, or the repository allowed it), still failing, not run on the
 * base, new, flaky; or "exit code only" when the runner's output could not be read.
 * Test names come from the repository's output: each is a code span, one line, capped.
 */
export function renderTestChanges(tests: TestEvidence, baseName = 'the base'): string {
  const mode = `verify_mode ${codeSpan(tests.mode)}`;
  const lines: string[] = [];
  if (!tests.format || !tests.totals) {
    lines.push(`**Tests:** exit code only — the test output has no report greenfix can read (${mode}).`);
  } else {
    const t = tests.totals;
    lines.push(`**Tests** (${tests.format}, ${mode}): ${t.total} tests, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped.`);
  }
  if (tests.fallback) lines.push(`*${oneLine(tests.fallback, 300)}.*`);
  if (tests.baseline) lines.push(`- baseline, ${baselineCounts(tests.baseline, baseName)}`);
  const c = tests.comparison;
  if (c) {
    const rows = [
      row('fail → pass', c.fixed, 'none'),
      row('pass → fail', c.broken, 'none'),
      row('removed: ran on the base, did not run', c.removed),
      row('now skipped: ran on the base', c.nowSkipped),
      row('still failing, as on the base', c.stillFailing),
      row('not run on the base (its run stopped at a failing test binary before theirs)', c.notRunOnBase),
      row('new tests, passing', c.newPassing),
      row('new tests, failing', c.newFailing),
      row('flaky (failed, then passed when rerun; not counted as fixed or broken)', c.flaky),
    ];
    lines.push(...rows.filter((r): r is string => r !== null), ...removedNote(tests, c));
  } else if (tests.format) {
    lines.push('- no per-test comparison: the baseline run on the base has no readable report');
  }
  return lines.join('\n');
}

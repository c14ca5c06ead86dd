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

/**
 * Per test, what the change did (DESIGN §4.8): fail → pass, pass → fail (always shown: it must be
 * empty), still failing, new, flaky; or "exit code only" when the runner's output could not be read.
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
      row('pass → fail', [...c.broken, ...c.missing], 'none'),
      row('still failing, as on the base', c.stillFailing),
      row('new tests, passing', c.newPassing),
      row('new tests, failing', c.newFailing),
      row('flaky (failed, then passed when rerun; not counted as fixed or broken)', c.flaky),
    ];
    lines.push(...rows.filter((r): r is string => r !== null));
  } else if (tests.format) {
    lines.push('- no per-test comparison: the baseline run on the base has no readable report');
  }
  return lines.join('\n');
}

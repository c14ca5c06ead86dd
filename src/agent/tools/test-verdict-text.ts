import type { TestComparison } from '../../verify/compare-reports.js';
import { comparisonRows } from '../../verify/comparison-rows.js';
import { listNames as names } from '../../verify/test-names.js';
import type { TestEvidence } from '../../verify/test-evidence.js';
import type { TestReport } from '../../verify/test-report.js';

/** Per-test lines for the model: what changed against the base, or the counts when there is no base. */
export function testChangeLines(report: TestReport | null, comparison: TestComparison | null): string {
  if (!report) return 'test report: none greenfix can read (exit code only)';
  const t = report.totals;
  const lines = [`test report (${report.format}): ${t.total} tests, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`];
  if (comparison) {
    for (const { label, ids } of comparisonRows(comparison)) if (ids.length > 0) lines.push(`${label}: ${names(ids)}`);
  } else {
    const failing = report.tests.filter((c) => c.status === 'failed').map((c) => c.id);
    if (failing.length > 0) lines.push(`failing: ${names(failing)}`);
  }
  return lines.join('\n');
}

/**
 * A verified tree's per-test evidence as text lines (the CLI, the run log): fail → pass and
 * pass → fail always, then removed, now skipped, still failing, not run on the base, new, flaky.
 */
export function evidenceLines(tests: TestEvidence): string[] {
  if (!tests.format || !tests.totals) return [`tests: exit code only (no readable test report; verify_mode ${tests.mode})`];
  const t = tests.totals;
  const lines = [`tests (${tests.format}, verify_mode ${tests.mode}): ${t.total} tests, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`];
  const c = tests.comparison;
  if (!c) return [...lines, 'tests: no per-test comparison (the baseline has no readable report)'];
  for (const { label, ids, always } of comparisonRows(c)) if (ids.length > 0 || always) lines.push(`  ${label}: ${ids.length > 0 ? ids.join(', ') : 'none'}`);
  if (c.removed.length + c.nowSkipped.length > 0) lines.push('  (tests that ran on the base do not run here: the repository allows it with tests.allow_removed)');
  return lines;
}

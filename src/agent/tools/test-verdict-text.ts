import type { TestComparison } from '../../verify/compare-reports.js';
import type { TestReport } from '../../verify/test-report.js';

function names(list: readonly string[], max = 10): string {
  const shown = list.slice(0, max).join(', ');
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

/** Per-test lines for the model: what changed against the base, or the counts when there is no base. */
export function testChangeLines(report: TestReport | null, comparison: TestComparison | null): string {
  if (!report) return 'test report: none greenfix can read (exit code only)';
  const t = report.totals;
  const lines = [`test report (${report.format}): ${t.total} tests, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`];
  if (comparison) {
    const rows: [string, string[]][] = [
      ['fail → pass', comparison.fixed],
      ['pass → fail', comparison.broken],
      ['passed on the base, did not run', comparison.missing],
      ['still failing (failed on the base too)', comparison.stillFailing],
      ['new, passing', comparison.newPassing],
      ['new, failing', comparison.newFailing],
      ['flaky (failed, then passed on a rerun)', comparison.flaky],
    ];
    for (const [label, ids] of rows) if (ids.length > 0) lines.push(`${label}: ${names(ids)}`);
  } else {
    const failing = report.tests.filter((c) => c.status === 'failed').map((c) => c.id);
    if (failing.length > 0) lines.push(`failing: ${names(failing)}`);
  }
  return lines.join('\n');
}

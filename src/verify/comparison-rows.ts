import type { TestComparison } from './compare-reports.js';

export interface ComparisonRow {
  label: string;
  ids: string[];
  /** Shown even when empty ("none"): what must be empty for the evidence to read right. */
  always: boolean;
}

/**
 * The per-test evidence in the order every reader gets it (the model, the PR and check run, the
 * CLI): what was fixed and broken first, then what no longer runs, then the rest.
 */
export function comparisonRows(c: TestComparison): ComparisonRow[] {
  const rows: [string, string[], boolean][] = [
    ['fail → pass', c.fixed, true],
    ['pass → fail', c.broken, true],
    ['removed: ran on the base, did not run', c.removed, false],
    ['now skipped: ran on the base', c.nowSkipped, false],
    ['still failing, as on the base', c.stillFailing, false],
    ['not run on the base (its run stopped at a failing test binary before theirs)', c.notRunOnBase, false],
    ['new tests, passing', c.newPassing, false],
    ['new tests, failing', c.newFailing, false],
    ['flaky (failed, then passed when rerun; not counted as fixed or broken)', c.flaky, false],
  ];
  return rows.map(([label, ids, always]) => ({ label, ids, always }));
}

import { ReportBuilder, cleanLines } from './report-builder.js';
import type { TestReport, TestTotals } from './test-report.js';

const TOTALS = /^Tests\s+(.*)\((\d+)\)\s*$/;

function totalsOf(text: string, total: number): TestTotals {
  const n = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(text)?.[1] ?? 0);
  return { passed: n('passed'), failed: n('failed'), skipped: n('skipped') + n('todo'), total };
}

/**
 * vitest's default reporter: `Tests  2 failed | 4 passed | 1 skipped (8)`, and one
 * `FAIL  file > suite > test` header per failure (the tree above it names passing tests without
 * their suites, so it is not read). Ids drop the file, as the JSON reporter's do.
 */
export function parseVitestSummary(output: string): TestReport | null {
  const lines = cleanLines(output);
  const totalsLine = lines.map((l) => TOTALS.exec(l.trim())).find((m) => m !== null);
  if (!totalsLine || !lines.some((l) => /^\s*(RUN|Test Files)\s/.test(l))) return null;
  const totals = totalsOf(totalsLine[1] ?? '', Number(totalsLine[2]));
  const builder = new ReportBuilder();
  for (const raw of lines) {
    const m = /^FAIL\s+(.+? > .+)$/.exec(raw.trim());
    if (!m) continue;
    const parts = (m[1] ?? '').split(' > ');
    builder.add(parts.slice(1), 'failed');
  }
  return builder.build('vitest (summary)', false, totals);
}

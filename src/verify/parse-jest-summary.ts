import { ReportBuilder, cleanLines, indentOf } from './report-builder.js';
import type { TestReport, TestStatus, TestTotals } from './test-report.js';

const TOTALS = /^Tests:\s+(.*\d+ total)\s*$/;
const VERBOSE = /^(✓|✕|○ skipped|✎ todo|○)\s+(.*?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?$/;
const FILE = /^(PASS|FAIL)\s+\S/;

function totalsOf(text: string): TestTotals {
  const n = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(text)?.[1] ?? 0);
  return { passed: n('passed'), failed: n('failed'), skipped: n('skipped') + n('todo') + n('pending'), total: n('total') };
}

function verboseStatus(mark: string): TestStatus {
  if (mark === '✓') return 'passed';
  if (mark === '✕') return 'failed';
  return 'skipped';
}

/**
 * jest's default output: `Tests: 2 failed, 1 skipped, 4 passed, 8 total`. With `--verbose` every
 * test is listed under its `PASS`/`FAIL` file (suites by indentation, 2 spaces); without it only
 * the failures are named, as `● suite › test` headers.
 */
export function parseJestSummary(output: string): TestReport | null {
  const lines = cleanLines(output);
  const totalsLine = lines.map((l) => TOTALS.exec(l.trim())).find((m) => m !== null);
  if (!totalsLine) return null;
  const totals = totalsOf(totalsLine[1] ?? '');
  const verbose = new ReportBuilder();
  const failures = new ReportBuilder();
  let inFile = false;
  const open: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (FILE.test(line) && indentOf(raw) === 0) {
      inFile = true;
      open.length = 0;
      continue;
    }
    const header = /^● (.+ › .+|[^›]+)$/.exec(line);
    if (header && !/^● (Console|Test suite failed to run)/.test(line)) {
      failures.add((header[1] ?? '').split(' › '), 'failed');
      inFile = false;
      continue;
    }
    if (!inFile) continue;
    if (line === '') {
      inFile = false;
      continue;
    }
    const level = Math.floor(indentOf(raw) / 2) - 1;
    const m = VERBOSE.exec(line);
    if (m) verbose.add([...open.slice(0, Math.max(0, level)), m[2] ?? ''], verboseStatus(m[1] ?? ''));
    else if (level >= 0) {
      open[level] = line;
      open.length = level + 1;
    }
  }
  if (verbose.size > 0) return verbose.build('jest (verbose)', true, totals);
  return failures.build('jest (summary)', false, totals);
}

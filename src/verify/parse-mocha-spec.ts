import { ReportBuilder, cleanLines, indentOf } from './report-builder.js';
import type { TestReport, TestStatus } from './test-report.js';

const TEST = /^(✔|✓|\d+\)|-)\s+(.*?)(?:\s+\(\d+ms\))?$/;
const PASSING = /^\d+ passing \(/;

function statusOf(mark: string): TestStatus {
  if (mark === '-') return 'skipped';
  if (mark === '✔' || mark === '✓') return 'passed';
  return 'failed';
}

/**
 * mocha's spec reporter (the default): suites and tests by indentation (2 spaces a level, from 2),
 * `✔ test`, `1) test` (failed), `- test` (pending), up to the `N passing (…)` line; totals from
 * mocha's own `N passing / N pending / N failing`.
 */
export function parseMochaSpec(output: string): TestReport | null {
  const lines = cleanLines(output);
  const end = lines.findIndex((l) => PASSING.test(l.trim()));
  if (end < 0) return null;
  const builder = new ReportBuilder();
  const open: string[] = [];
  for (const raw of lines.slice(0, end)) {
    const line = raw.trim();
    if (line === '') continue;
    const level = Math.max(0, Math.floor(indentOf(raw) / 2) - 1);
    const m = TEST.exec(line);
    if (m) builder.add([...open.slice(0, level), m[2] ?? ''], statusOf(m[1] ?? ''));
    else {
      open[level] = line;
      open.length = level + 1;
    }
  }
  if (builder.size === 0) return null;
  // mocha's own counts: two tests with the same suite path and name (in two files) are one id here.
  const count = (word: string) => Number(lines.slice(end).map((l) => new RegExp(`^(\\d+) ${word}\\b`).exec(l.trim())?.[1]).find((n) => n !== undefined) ?? 0);
  const passed = count('passing');
  const failed = count('failing');
  const skipped = count('pending');
  return builder.build('mocha (spec)', true, { passed, failed, skipped, total: passed + failed + skipped });
}

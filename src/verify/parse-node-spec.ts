import { ReportBuilder, cleanLines, indentOf } from './report-builder.js';
import type { TestReport, TestStatus } from './test-report.js';

const MARK: Record<string, TestStatus> = { '✔': 'passed', '✖': 'failed', '﹣': 'skipped' };
const LINE = /^(✔|✖|﹣)\s+(.*?)\s+\([\d.]+m?s\)(?:\s+#\s*(.*))?$/;

/**
 * node's test runner, spec reporter (`--test-reporter=spec`, the default on a terminal):
 * `▶ suite` opens a level (2 spaces each) and the suite's own `✔ suite (…ms)` closes it; a
 * `# TODO` test counts as skipped. The `✖ failing tests:` recap at the end is not read twice.
 */
export function parseNodeSpec(output: string): TestReport | null {
  const lines = cleanLines(output);
  if (!lines.some((l) => /^ℹ tests \d+/.test(l.trim()))) return null;
  const builder = new ReportBuilder();
  const open: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith('✖ failing tests:')) break;
    const level = Math.floor(indentOf(raw) / 2);
    const suite = /^▶ (.*)$/.exec(line);
    if (suite) {
      open[level] = suite[1] ?? '';
      open.length = level + 1;
      continue;
    }
    const m = LINE.exec(line);
    if (!m) continue;
    const name = m[2] ?? '';
    if (open.length > level && open[level] === name) {
      open.length = level; // the suite's closing line
      continue;
    }
    const todo = /^TODO\b/i.test(m[3] ?? '');
    builder.add([...open.slice(0, level), name], todo ? 'skipped' : (MARK[m[1] ?? ''] ?? 'failed'));
  }
  return builder.size > 0 ? builder.build('node --test (spec)', true) : null;
}

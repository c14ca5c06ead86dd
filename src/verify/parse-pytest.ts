import { ReportBuilder, cleanLines } from './report-builder.js';
import type { TestReport, TestStatus, TestTotals } from './test-report.js';

const FINAL = /^=+ (.*\b(?:passed|failed|error|errors|skipped|deselected|xfailed|xpassed|no tests ran)\b.*) in [\d.]+s(?: \([^)]*\))? =+$/;
/** `-q` drops the `=` rule around the final line: only counts, so nothing else reads like it. */
const COUNT = String.raw`\d+ (?:failed|passed|errors?|skipped|deselected|xfailed|xpassed|warnings?|rerun)`;
const FINAL_QUIET = new RegExp(String.raw`^(${COUNT}(?:, ${COUNT})*|no tests ran) in [\d.]+s(?: \([^)]*\))?$`);
const ENTRY = /^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\s+(.*)$/;

function totalsOf(text: string): TestTotals {
  const n = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(text)?.[1] ?? 0);
  const failed = n('failed') + n('errors?');
  const passed = n('passed') + n('xpassed');
  const skipped = n('skipped') + n('xfailed');
  return { passed, failed, skipped, total: passed + failed + skipped };
}

function statusOf(word: string): TestStatus {
  if (word === 'PASSED' || word === 'XPASS') return 'passed';
  if (word === 'FAILED' || word === 'ERROR') return 'failed';
  return 'skipped';
}

/**
 * pytest's short test summary: with `-rA` every test (`PASSED nodeid`, `FAILED nodeid - msg`),
 * without it only failures and errors. `SKIPPED [n] file:line: reason` has no node id: it counts,
 * under its location. Totals from the final `=== 3 failed, 4 passed in 0.6s ===` line (with `-q`,
 * the command greenfix detects, the same line without the `=` rule).
 */
export function parsePytest(output: string): TestReport | null {
  const lines = cleanLines(output);
  const final = lines.map((l) => FINAL.exec(l.trim()) ?? FINAL_QUIET.exec(l.trim())).filter((m) => m !== null).pop();
  if (!final) return null;
  const totals = totalsOf(final[1] ?? '');
  const start = lines.findIndex((l) => /^=+ short test summary info =+$/.test(l.trim()));
  const builder = new ReportBuilder();
  let listsPassing = false;
  if (start >= 0) {
    for (const raw of lines.slice(start + 1)) {
      const m = ENTRY.exec(raw.trim());
      if (!m) continue;
      const word = m[1] ?? '';
      const rest = m[2] ?? '';
      if (word === 'PASSED') listsPassing = true;
      const id = word === 'SKIPPED' ? rest.replace(/^\[\d+\]\s+/, '').replace(/:\s.*$/, '') : rest.replace(/\s+-\s.*$/, '');
      builder.addId(id, statusOf(word));
    }
  }
  return builder.build(listsPassing ? 'pytest -rA' : 'pytest (summary)', listsPassing || totals.passed === 0, totals);
}

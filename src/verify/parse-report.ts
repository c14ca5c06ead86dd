import { parseCargoTest } from './parse-cargo-test.js';
import { parseGoJson, parseGoPlain } from './parse-go-test.js';
import { parseJestJson } from './parse-jest-json.js';
import { parseJestSummary } from './parse-jest-summary.js';
import { isJunitXml, parseJunitXml } from './parse-junit-xml.js';
import { parseMochaSpec } from './parse-mocha-spec.js';
import { parseNodeSpec } from './parse-node-spec.js';
import { parseNodeTap } from './parse-node-tap.js';
import { parsePytest } from './parse-pytest.js';
import { parseVitestSummary } from './parse-vitest-summary.js';
import type { ReportFile, TestReport } from './test-report.js';

/**
 * Output parsers, most specific first: a structured format (JSON, TAP) before a summary that
 * names only failures. The first that recognises the output wins.
 */
const OUTPUT_PARSERS: readonly ((output: string) => TestReport | null)[] = [
  parseJestJson,
  parseGoJson,
  parseNodeTap,
  parseNodeSpec,
  parseCargoTest,
  parsePytest,
  parseJestSummary,
  parseVitestSummary,
  parseMochaSpec,
  parseGoPlain,
];

/** The runner's printed output → the tests it ran, or null when no known format is found. */
export function parseOutputReport(output: string): TestReport | null {
  for (const parse of OUTPUT_PARSERS) {
    const report = parse(output);
    if (report) return report;
  }
  return null;
}

/** What a run's output and report files (JUnit XML) say together. */
export type ReportReading =
  /** One report, or null (exit code only); `source` says where it came from. */
  | { agree: true; report: TestReport | null; source: 'output' | 'files' | 'both' | null }
  /**
   * The files and the output disagree: a failure, whatever the exit code. `reason` reads after
   * "not verified: " ("the report file junit.xml says 10 passed, 0 failed; the runner printed …").
   */
  | { agree: false; reason: string; output: TestReport; files: TestReport; paths: string[] };

function counts(t: TestReport['totals']): string {
  return `${t.passed} passed, ${t.failed} failed${t.skipped > 0 ? `, ${t.skipped} skipped` : ''} (${t.total} in all)`;
}

function fileNames(paths: readonly string[]): string {
  const names = paths.map((p) => p.split('/').pop() ?? p);
  const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ` and ${names.length - 3} more` : '');
  return names.length === 1 ? `the report file ${shown} says` : `the report files ${shown} say`;
}

/**
 * A test run's output and the JUnit XML files it wrote. A report file never replaces what the
 * runner printed: when both can be read, their failed counts and totals must be equal, else the
 * reading is a disagreement (a failure with the reason named). When they agree, the one that lists
 * every test is used (the output if it does). Files alone (output in no known format) are used.
 */
export function readTestReport(output: string, files: readonly ReportFile[] = []): ReportReading {
  const printed = parseOutputReport(output);
  const junit = files.length > 0 ? parseJunitXml(files) : null;
  if (!junit) return { agree: true, report: printed, source: printed ? 'output' : null };
  if (!printed) return { agree: true, report: junit, source: 'files' };
  const paths = files.filter((f) => isJunitXml(f.content)).map((f) => f.path);
  if (printed.totals.failed !== junit.totals.failed || printed.totals.total !== junit.totals.total) {
    const reason = `${fileNames(paths)} ${counts(junit.totals)}; the runner printed ${counts(printed.totals)}`;
    return { agree: false, reason, output: printed, files: junit, paths };
  }
  return { agree: true, report: printed.listsPassing ? printed : junit, source: 'both' };
}

/**
 * The report of a run, for callers that only want one: the output's, or the files' when they
 * agree with it (readTestReport); on a disagreement, what the runner printed. A caller that must
 * fail on a disagreement (the verdict) calls readTestReport.
 */
export function parseReport(output: string, files: readonly ReportFile[] = []): TestReport | null {
  const reading = readTestReport(output, files);
  return reading.agree ? reading.report : reading.output;
}

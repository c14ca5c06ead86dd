import { parseCargoTest } from './parse-cargo-test.js';
import { parseGoJson, parseGoPlain } from './parse-go-test.js';
import { parseJestJson } from './parse-jest-json.js';
import { parseJestSummary } from './parse-jest-summary.js';
import { parseJunitXml } from './parse-junit-xml.js';
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

/**
 * A test run's output (and any JUnit XML files it wrote) → the tests it ran, or null when no
 * known format is found: the evidence is then the exit code only. A report with per-test entries
 * beats a summary: JUnit files are used when the output is only a summary or unknown.
 */
export function parseReport(output: string, files: readonly ReportFile[] = []): TestReport | null {
  let fromOutput: TestReport | null = null;
  for (const parse of OUTPUT_PARSERS) {
    fromOutput = parse(output);
    if (fromOutput) break;
  }
  if (fromOutput?.listsPassing) return fromOutput;
  return parseJunitXml(files) ?? fromOutput;
}

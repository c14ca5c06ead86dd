import { ReportBuilder, cleanLines } from './report-builder.js';
import type { TestReport, TestStatus } from './test-report.js';

const TEST = /^test (.+?) \.\.\. (ok|FAILED|ignored)(?:,.*)?$/;
const TARGET = /^(?:Running (?:unittests )?(\S+)|Doc-tests (\S+))/;

/**
 * `cargo test`: `test path::name ... ok|FAILED|ignored`, grouped under each `Running <target>`
 * (or `Doc-tests <crate>`) line, which prefixes the id so equal names in two binaries stay apart.
 */
export function parseCargoTest(output: string): TestReport | null {
  const lines = cleanLines(output);
  if (!lines.some((l) => /^test result: (ok|FAILED)\./.test(l.trim()))) return null;
  const builder = new ReportBuilder();
  let target = '';
  for (const raw of lines) {
    const line = raw.trim();
    const t = TARGET.exec(line);
    if (t) {
      target = t[1] ?? `doc-tests ${t[2] ?? ''}`;
      continue;
    }
    const m = TEST.exec(line);
    if (!m) continue;
    const status: TestStatus = m[2] === 'ok' ? 'passed' : m[2] === 'FAILED' ? 'failed' : 'skipped';
    builder.add([target, m[1] ?? ''], status);
  }
  return builder.build('cargo test', true);
}

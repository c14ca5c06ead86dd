import { ReportBuilder, cleanLines } from './report-builder.js';
import type { TestReport, TestStatus } from './test-report.js';

const TEST = /^test (.+?) \.\.\. (ok|FAILED|ignored)(?:,.*)?$/;
const TARGET = /^(?:Running (?:unittests )?(\S+)|Doc-tests (\S+))/;
/** A failing target; under the default fail-fast the run ends right after it. */
const TARGET_FAILED = /^error: test failed, to rerun pass /;
/** `--no-fail-fast` ends with the list of every failed target: all of them ran. */
const ALL_RAN = /^error: \d+ targets? failed:/;

/**
 * `cargo test`: `test path::name ... ok|FAILED|ignored`, grouped under each `Running <target>`
 * (or `Doc-tests <crate>`) line, which prefixes the id so equal names in two binaries stay apart.
 * By default cargo stops at the first target that fails: the report then says which targets ran
 * (`stoppedEarly`), so a test of a later target reads as not reached, not as absent or new.
 */
export function parseCargoTest(output: string): TestReport | null {
  const lines = cleanLines(output);
  if (!lines.some((l) => /^test result: (ok|FAILED)\./.test(l.trim()))) return null;
  const builder = new ReportBuilder();
  const targets: string[] = [];
  let target = '';
  let failedTarget = false;
  let allRan = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (TARGET_FAILED.test(line)) failedTarget = true;
    if (ALL_RAN.test(line)) allRan = true;
    const t = TARGET.exec(line);
    if (t) {
      target = t[1] ?? `doc-tests ${t[2] ?? ''}`;
      targets.push(target);
      continue;
    }
    const m = TEST.exec(line);
    if (!m) continue;
    const status: TestStatus = m[2] === 'ok' ? 'passed' : m[2] === 'FAILED' ? 'failed' : 'skipped';
    builder.add([target, m[1] ?? ''], status, target);
  }
  const report = builder.build('cargo test', true);
  return failedTarget && !allRan ? { ...report, stoppedEarly: { ranTargets: targets } } : report;
}

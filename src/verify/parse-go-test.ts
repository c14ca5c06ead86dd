import { ReportBuilder, cleanLines } from './report-builder.js';
import type { TestReport, TestStatus } from './test-report.js';

interface GoEvent {
  Action?: unknown;
  Package?: unknown;
  Test?: unknown;
}

const ACTION: Record<string, TestStatus> = { pass: 'passed', fail: 'failed', skip: 'skipped' };

/** `go test -json`: one event a line; `pass`/`fail`/`skip` with a Test are results, id `package > Test/sub`. */
export function parseGoJson(output: string): TestReport | null {
  const builder = new ReportBuilder();
  const withTests = new Set<string>();
  const failedPackages: string[] = [];
  let events = 0;
  for (const line of cleanLines(output)) {
    if (!line.startsWith('{"Time"') && !line.startsWith('{"Action"')) continue;
    let e: GoEvent;
    try {
      e = JSON.parse(line) as GoEvent;
    } catch {
      continue;
    }
    events += 1;
    const status = typeof e.Action === 'string' ? ACTION[e.Action] : undefined;
    const pkg = typeof e.Package === 'string' ? e.Package : '';
    if (!status) continue;
    if (typeof e.Test === 'string') {
      withTests.add(pkg);
      builder.add([pkg, e.Test], status);
    } else if (status === 'failed') failedPackages.push(pkg);
  }
  if (events === 0) return null;
  // A package that failed without a test failing (build error, TestMain, panic in init) still failed.
  for (const pkg of failedPackages) if (!withTests.has(pkg)) builder.add([pkg, '(package failed)'], 'failed');
  return builder.build('go test -json', true);
}

const RESULT = /^--- (PASS|FAIL|SKIP): (\S+) \(/;
const PACKAGE = /^(ok|FAIL|\?)\s+(\S+)(?:\s|$)/;

/**
 * Plain `go test`: `--- FAIL: TestX (0.00s)` lines (with `-v` also PASS and SKIP), each package
 * closed by `ok  pkg` / `FAIL pkg`, which names the package of the results above it.
 */
export function parseGoPlain(output: string): TestReport | null {
  const builder = new ReportBuilder();
  let pending: { name: string; status: TestStatus }[] = [];
  let listsPassing = false;
  let packages = 0;
  for (const raw of cleanLines(output)) {
    const line = raw.trim();
    const r = RESULT.exec(line);
    if (r) {
      const status: TestStatus = r[1] === 'PASS' ? 'passed' : r[1] === 'FAIL' ? 'failed' : 'skipped';
      if (status === 'passed') listsPassing = true;
      pending.push({ name: r[2] ?? '', status });
      continue;
    }
    const p = PACKAGE.exec(raw);
    if (!p || (p[1] === 'FAIL' && !raw.includes('\t'))) continue;
    packages += 1;
    const pkg = p[2] ?? '';
    if (p[1] === 'FAIL' && pending.length === 0) builder.add([pkg, '(package failed)'], 'failed');
    for (const t of pending) builder.add([pkg, t.name], t.status);
    pending = [];
  }
  if (packages === 0) return null;
  return builder.build(listsPassing ? 'go test -v' : 'go test', listsPassing);
}

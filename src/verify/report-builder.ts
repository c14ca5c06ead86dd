import { ID_SEPARATOR, type TestCase, type TestReport, type TestStatus, type TestTotals } from './test-report.js';

const RANK: Record<TestStatus, number> = { skipped: 0, passed: 1, failed: 2 };

/**
 * Collects tests in order. The same id twice (a name repeated in two files, a retried test) keeps
 * the worse status: a failure is never hidden by a later pass of a same-named test.
 */
export class ReportBuilder {
  private readonly byId = new Map<string, TestCase>();

  add(path: readonly string[], status: TestStatus, target?: string): void {
    this.addId(path.filter((p) => p.length > 0).join(ID_SEPARATOR), status, target);
  }

  /** `target`: the test binary it ran in, for runners that stop at a failing one (cargo). */
  addId(id: string, status: TestStatus, target?: string): void {
    if (id.length === 0) return;
    const seen = this.byId.get(id);
    if (seen === undefined || RANK[status] > RANK[seen.status]) this.byId.set(id, target === undefined ? { id, status } : { id, status, target });
  }

  get size(): number {
    return this.byId.size;
  }

  /** The report; totals counted from the tests unless the format's own summary is given. */
  build(format: string, listsPassing: boolean, totals?: TestTotals): TestReport {
    const tests: TestCase[] = [...this.byId.values()];
    return { format, tests, totals: totals ?? countTotals(tests), listsPassing };
  }
}

export function countTotals(tests: readonly TestCase[]): TestTotals {
  const t = { passed: 0, failed: 0, skipped: 0, total: tests.length };
  for (const c of tests) t[c.status] += 1;
  return t;
}

/** Terminal colours and cursor codes out: runners colour output even when piped (FORCE_COLOR, CI). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\r(?!\n)/g, '\n');
}

/** Lines of the text, ANSI removed, CRLF normalised. */
export function cleanLines(text: string): string[] {
  return stripAnsi(text).replace(/\r\n/g, '\n').split('\n');
}

export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** What one test did in one run. `skipped` covers skip, todo, pending, ignored and xfail. */
export type TestStatus = 'passed' | 'failed' | 'skipped';

export interface TestCase {
  /** Suite path + name, joined by " > " (a runner's own id where it has one: pytest, go, cargo). */
  id: string;
  status: TestStatus;
}

export interface TestTotals {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

/** One run's tests, as read from the runner's output. */
export interface TestReport {
  /** The runner and its format, e.g. "jest --json", "pytest -rA", "go test -json". */
  format: string;
  tests: TestCase[];
  totals: TestTotals;
  /**
   * True when every test is listed; false when the format names only failures (jest's and
   * vitest's default summary, pytest without -rA, go test without -v): totals still count all.
   */
  listsPassing: boolean;
}

/** A file a runner wrote (JUnit XML), read for the host from inside the sandbox. */
export interface ReportFile {
  path: string;
  content: string;
}

export const ID_SEPARATOR = ' > ';

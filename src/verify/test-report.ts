/** What one test did in one run. `skipped` covers skip, todo, pending, ignored and xfail. */
export type TestStatus = 'passed' | 'failed' | 'skipped';

export interface TestCase {
  /** Suite path + name, joined by " > " (a runner's own id where it has one: pytest, go, cargo). */
  id: string;
  status: TestStatus;
  /** The test binary or target it belongs to, where the runner runs them one by one (cargo). */
  target?: string;
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
  /**
   * Set when the runner stopped at a failing target and never started the rest (cargo test's
   * default fail-fast): the targets that ran. A test of any other target was not reached.
   */
  stoppedEarly?: { ranTargets: string[] };
}

/** A file a runner wrote (JUnit XML), read for the host from inside the sandbox. */
export interface ReportFile {
  path: string;
  content: string;
}

export const ID_SEPARATOR = ' > ';

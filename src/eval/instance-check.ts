import type { TestReport, TestStatus } from '../verify/test-report.js';

/** The instance's own check of a tree: its FAIL_TO_PASS tests pass, its PASS_TO_PASS tests still do. */
export interface InstanceCheck {
  passed: boolean;
  /** FAIL_TO_PASS tests that did not pass (failed, skipped, or did not run). */
  failToPass: string[];
  /** PASS_TO_PASS tests that did not pass. */
  passToPass: string[];
  /** One sentence: why it passed or not. */
  reason: string;
}

/**
 * Matches the instance's test names against a run's report. A name matches a test whose id is
 * that name, or whose id ends with " > name" (a runner that adds the file or suite in front). A
 * report that lists only failures cannot show that a test passed unless the command exited 0.
 */
export function checkInstance(report: TestReport | null, exitCode: number | null, tests: { failToPass: readonly string[]; passToPass: readonly string[] }): InstanceCheck {
  if (!report) {
    const passed = exitCode === 0 && tests.failToPass.length === 0;
    return { passed, failToPass: [...tests.failToPass], passToPass: exitCode === 0 ? [] : [...tests.passToPass], reason: 'the test run printed no report greenfix can read: no test can be matched by name' };
  }
  const status = statusOf(report, exitCode);
  const notPassing = (names: readonly string[]) => names.filter((n) => status(n) !== 'passed');
  const f2p = notPassing(tests.failToPass);
  const p2p = notPassing(tests.passToPass);
  const passed = f2p.length === 0 && p2p.length === 0;
  const describe = (names: string[], kind: string) => (names.length === 0 ? null : `${kind} not passing: ${names.map((n) => `${n} (${status(n) ?? 'did not run'})`).slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`);
  const reason = passed
    ? `all ${tests.failToPass.length} FAIL_TO_PASS and ${tests.passToPass.length} PASS_TO_PASS tests pass`
    : [describe(f2p, 'FAIL_TO_PASS'), describe(p2p, 'PASS_TO_PASS')].filter(Boolean).join('; ');
  return { passed, failToPass: f2p, passToPass: p2p, reason };
}

function statusOf(report: TestReport, exitCode: number | null): (name: string) => TestStatus | undefined {
  const byId = new Map(report.tests.map((t) => [t.id, t.status]));
  return (name) => {
    const exact = byId.get(name);
    if (exact) return exact;
    const suffix = report.tests.find((t) => t.id.endsWith(` > ${name}`));
    if (suffix) return suffix.status;
    // A summary format names failures only: an unnamed test passed when the whole run did.
    return !report.listsPassing && exitCode === 0 ? 'passed' : undefined;
  };
}

/** The tests of `report` by status, for mining: which failed, which passed. */
export function testsBy(report: TestReport, wanted: TestStatus): string[] {
  return report.tests.filter((t) => t.status === wanted).map((t) => t.id);
}

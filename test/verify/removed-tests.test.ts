import { compareReports } from '../../src/verify/compare-reports.js';
import { parseReport } from '../../src/verify/parse-report.js';
import { countTotals } from '../../src/verify/report-builder.js';
import type { TestReport, TestStatus } from '../../src/verify/test-report.js';
import { decideVerification } from '../../src/verify/verify-policy.js';
import { readFixture } from './report-fixtures.js';

function report(tests: Record<string, TestStatus>, listsPassing = true, totals?: TestReport['totals']): TestReport {
  const list = Object.entries(tests).map(([id, status]) => ({ id, status }));
  return { format: 'test', tests: list, totals: totals ?? countTotals(list), listsPassing };
}

const base = report({ a: 'passed', b: 'failed', c: 'passed', s: 'skipped' });
const green = (tests: Record<string, TestStatus>, listsPassing = true, totals?: TestReport['totals']) => ({ exitCode: 0, timedOut: false, report: report(tests, listsPassing, totals) });

describe('removed and skipped tests are not a pass', () => {
  test.each(['all_pass', 'no_new_failures'] as const)('%s: deleting the failing test, exit 0 → not verified, named, with what to do', (mode) => {
    const d = decideVerification(mode, base, green({ a: 'passed', c: 'passed', s: 'skipped' }));
    expect(d.verified).toBe(false);
    expect(d.reason).toBe('tests that ran on the base did not run: b — restore them (deleting, renaming or skipping a test is not a fix)');
    expect(d.comparison?.removed).toEqual(['b']);
  });

  test.each(['all_pass', 'no_new_failures'] as const)('%s: skipping the failing test and deleting a passing one → both named', (mode) => {
    const d = decideVerification(mode, base, green({ a: 'passed', b: 'skipped', s: 'skipped' }));
    expect(d.verified).toBe(false);
    expect(d.reason).toBe('tests that ran on the base did not run: c; now skipped: b — restore them and remove the skips (deleting, renaming or skipping a test is not a fix)');
  });

  test('a test skipped on both sides is not news: a real fix verifies', () => {
    const d = decideVerification('all_pass', base, green({ a: 'passed', b: 'passed', c: 'passed', s: 'skipped' }));
    expect(d).toMatchObject({ verified: true, reason: 'the test command exited 0' });
    expect(d.comparison).toMatchObject({ fixed: ['b'], removed: [], nowSkipped: [] });
  });

  test.each(['all_pass', 'no_new_failures'] as const)('%s: tests.allow_removed lets it verify, and the tests are still listed', (mode) => {
    const d = decideVerification(mode, base, green({ a: 'passed', b: 'passed', s: 'skipped' }), null, { allowRemovedTests: true });
    expect(d.verified).toBe(true);
    expect(d.reason).toBe('the test command exited 0; tests that ran on the base did not run: c (allowed by tests.allow_removed)');
    expect(d.comparison?.removed).toEqual(['c']);
  });

  test('summary-only reports: fewer tests than on the base, or fewer that ran, in both modes', () => {
    const summaryBase = report({ b: 'failed' }, false, { passed: 2, failed: 1, skipped: 1, total: 4 });
    const deleted = green({}, false, { passed: 2, failed: 0, skipped: 1, total: 3 });
    for (const mode of ['all_pass', 'no_new_failures'] as const) {
      expect(decideVerification(mode, summaryBase, deleted).reason).toBe(
        'fewer tests ran than on the base (3 < 4) — restore the tests that no longer run and remove any new skips (deleting, renaming or skipping a test is not a fix)',
      );
    }
    const skipped = green({}, false, { passed: 2, failed: 0, skipped: 2, total: 4 });
    expect(decideVerification('all_pass', summaryBase, skipped).reason).toMatch(/^fewer tests ran than on the base: 2 passed or failed, 3 on the base \(more are skipped now\) — /);
    expect(decideVerification('all_pass', summaryBase, green({}, false, { passed: 3, failed: 0, skipped: 1, total: 4 })).verified).toBe(true);
  });
});

describe('no_new_failures needs progress, exit code 0 or not', () => {
  test('exit 0 with nothing fixed and no new passing test is not verified', () => {
    const allGreenBase = report({ a: 'passed', c: 'passed' });
    const d = decideVerification('no_new_failures', allGreenBase, green({ a: 'passed', c: 'passed' }));
    expect(d).toMatchObject({ verified: false, mode: 'no_new_failures' });
    expect(d.reason).toMatch(/^no test that failed on the base passes now, and no new test passes/);
    expect(decideVerification('no_new_failures', allGreenBase, green({ a: 'passed', c: 'passed', n: 'passed' })).verified).toBe(true);
  });

  test('a red tree that fixed one test: the reason says no new failures and names what still fails', () => {
    const d = decideVerification('no_new_failures', report({ a: 'failed', b: 'failed', c: 'passed' }), { exitCode: 1, timedOut: false, report: report({ a: 'passed', b: 'failed', c: 'passed' }) });
    expect(d).toMatchObject({ verified: true, reason: 'no new failures (verify_mode no_new_failures); still failing: b' });
  });
});

describe('cargo: a test the base run never reached is not run on the base, not new (real output)', () => {
  // fail-fast.txt: the lib target fails and cargo stops; tests/strings.rs never ran on the base.
  const stoppedBase = parseReport(readFixture('cargo', 'fail-fast.txt'));
  const fixed = parseReport(readFixture('cargo', 'all-pass.txt'));
  if (!stoppedBase || !fixed) throw new Error('fixtures did not parse');

  test('fixing the lib target: its test is fixed; the other binary\'s tests are not run on the base', () => {
    const c = compareReports(stoppedBase, fixed);
    expect(c.fixed).toEqual(['src/lib.rs > tests::subtracts']);
    expect(c.notRunOnBase.sort()).toEqual(['tests/strings.rs > fails_on_purpose', 'tests/strings.rs > upper']);
    expect(c.newPassing).toEqual([]);
    expect(decideVerification('no_new_failures', stoppedBase, { exitCode: 0, timedOut: false, report: fixed })).toMatchObject({ verified: true });
  });

  test('a test of an unreached binary that fails now is not a pass under no_new_failures', () => {
    const after = parseReport(readFixture('cargo', 'no-fail-fast.txt'));
    if (!after) throw new Error('fixture did not parse');
    const d = decideVerification('no_new_failures', stoppedBase, { exitCode: 101, timedOut: false, report: after });
    expect(d.comparison?.notRunOnBase).toContain('tests/strings.rs > fails_on_purpose');
    expect(d.comparison?.newFailing).toEqual([]);
    expect(d.verified).toBe(false);
    expect(d.reason).toMatch(/^tests the base run never reached fail now: tests\/strings\.rs > fails_on_purpose \(the base run stopped/);
  });

  test('a base run that ran every target: a new binary is new', () => {
    const fullBase = parseReport(readFixture('cargo', 'no-fail-fast.txt'));
    if (!fullBase) throw new Error('fixture did not parse');
    const withNew = { ...fixed, tests: [...fixed.tests, { id: 'tests/extra.rs > more', status: 'passed' as const, target: 'tests/extra.rs' }] };
    expect(compareReports(fullBase, withNew)).toMatchObject({ newPassing: ['tests/extra.rs > more'], notRunOnBase: [] });
  });
});

import { compareReports, emptyComparison } from '../../src/verify/compare-reports.js';
import { countTotals } from '../../src/verify/report-builder.js';
import type { TestReport, TestStatus } from '../../src/verify/test-report.js';
import { decideVerification, needsRerun } from '../../src/verify/verify-policy.js';

function report(tests: Record<string, TestStatus>, listsPassing = true, total?: number): TestReport {
  const list = Object.entries(tests).map(([id, status]) => ({ id, status }));
  const totals = countTotals(list);
  return { format: 'test', tests: list, totals: total === undefined ? totals : { ...totals, total }, listsPassing };
}

const base = report({ a: 'passed', b: 'failed', c: 'failed', d: 'passed', e: 'skipped' });

describe('compareReports', () => {
  test('fixed, broken, still failing, new passing, new failing, removed', () => {
    const after = report({ a: 'failed', b: 'passed', c: 'failed', e: 'passed', n1: 'passed', n2: 'failed' });
    expect(compareReports(base, after)).toEqual({
      ...emptyComparison(),
      fixed: ['b'],
      broken: ['a'],
      stillFailing: ['c'],
      newPassing: ['n1'],
      newFailing: ['n2'],
      removed: ['d'],
    });
  });

  test('removed: every test that ran on the base (passed or failed) and did not run; now skipped likewise', () => {
    const after = report({ a: 'skipped', e: 'skipped', d: 'passed' });
    const c = compareReports(base, after);
    expect(c.removed).toEqual(['b', 'c']);
    expect(c.nowSkipped).toEqual(['a']);
    // e was skipped on the base and is skipped now: not news; skipped on the base and gone: not news either
    expect(compareReports(base, report({ a: 'passed', b: 'failed', c: 'failed', d: 'passed' }))).toEqual({ ...emptyComparison(), stillFailing: ['b', 'c'] });
  });

  test('a summary-only run cannot name what did not run: nothing is listed as removed', () => {
    const after = report({ c: 'failed' }, false, 3);
    expect(compareReports(base, after).removed).toEqual([]);
  });

  test('a broken test that passes on the rerun is flaky, neither fixed nor broken', () => {
    const after = report({ a: 'failed', b: 'passed', c: 'failed', d: 'failed', e: 'skipped' });
    const rerun = report({ a: 'passed', b: 'passed', c: 'failed', d: 'failed', e: 'skipped' });
    const c = compareReports(base, after, rerun);
    expect(c.flaky).toEqual(['a']);
    expect(c.broken).toEqual(['d']);
    expect(c.fixed).toEqual(['b']);
  });

  test('summary-only reports: an absent failure is fixed only when no test went missing', () => {
    const baseSummary = report({ b: 'failed', c: 'failed' }, false, 10);
    expect(compareReports(baseSummary, report({ c: 'failed' }, false, 10)).fixed).toEqual(['b']);
    expect(compareReports(baseSummary, report({ c: 'failed' }, false, 7)).fixed).toEqual([]);
    // a failure the base did not name: it passed there or is new; either way it counts as broken
    expect(compareReports(baseSummary, report({ c: 'failed', x: 'failed' }, false, 10)).broken).toEqual(['x']);
  });
});

describe('decideVerification', () => {
  const red = (tests: Record<string, TestStatus>) => ({ exitCode: 1, timedOut: false, report: report(tests) });
  const fixedOne = { a: 'passed', b: 'passed', c: 'failed', d: 'passed', e: 'skipped' } as const;

  test('all_pass: a non-zero exit is not verified, and says which failing test also failed on the base', () => {
    const d = decideVerification('all_pass', base, red(fixedOne));
    expect(d).toMatchObject({ verified: false, mode: 'all_pass', fallback: null });
    expect(d.reason).toBe('the test command did not pass: failing c (c failed on the base too)');
    expect(d.comparison?.fixed).toEqual(['b']);
  });

  test('all_pass: exit 0 is verified, with or without reports', () => {
    expect(decideVerification('all_pass', null, { exitCode: 0, timedOut: false, report: null }).verified).toBe(true);
  });

  test('no_new_failures: fixed one, the unrelated failure still fails → verified, non-zero exit', () => {
    const d = decideVerification('no_new_failures', base, red(fixedOne));
    expect(d.verified).toBe(true);
    expect(d.mode).toBe('no_new_failures');
    expect(d.reason).toBe('no new failures (verify_mode no_new_failures); still failing: c');
    expect(d.comparison).toMatchObject({ fixed: ['b'], stillFailing: ['c'], broken: [] });
  });

  test('no_new_failures: a new passing test counts as progress', () => {
    const d = decideVerification('no_new_failures', base, red({ a: 'passed', b: 'failed', c: 'failed', d: 'passed', t: 'passed' }));
    expect(d.verified).toBe(true);
    expect(d.comparison?.newPassing).toEqual(['t']);
  });

  test('no_new_failures: breaking a base-passing test is refused and named', () => {
    const d = decideVerification('no_new_failures', base, red({ a: 'failed', b: 'passed', c: 'failed', d: 'passed' }));
    expect(d).toMatchObject({ verified: false, reason: 'tests that passed on the base fail now: a' });
  });

  test('no_new_failures: nothing fixed, a new failing test, a deleted test, a timeout: all refused', () => {
    expect(decideVerification('no_new_failures', base, red({ a: 'passed', b: 'failed', c: 'failed', d: 'passed' })).reason).toBe(
      'no test that failed on the base passes now, and no new test passes: fix a failing test, or add a test that passes',
    );
    expect(decideVerification('no_new_failures', base, red({ ...fixedOne, n: 'failed' })).reason).toBe('new tests fail: n');
    expect(decideVerification('no_new_failures', base, red({ a: 'passed', b: 'passed', c: 'failed' })).reason).toBe(
      'tests that ran on the base did not run: d — restore them (deleting, renaming or skipping a test is not a fix)',
    );
    expect(decideVerification('no_new_failures', base, { ...red(fixedOne), timedOut: true }).verified).toBe(false);
  });

  test('no_new_failures without a readable report falls back to all_pass and says so', () => {
    const d = decideVerification('no_new_failures', base, { exitCode: 1, timedOut: false, report: null });
    expect(d).toMatchObject({ verified: false, mode: 'all_pass' });
    expect(d.fallback).toMatch(/no test report greenfix can read, so the whole command must pass \(all_pass\)/);
    const noBase = decideVerification('no_new_failures', null, { exitCode: 0, timedOut: false, report: null });
    expect(noBase).toMatchObject({ verified: true, mode: 'all_pass' });
    expect(noBase.fallback).toMatch(/^verify_mode no_new_failures: the baseline run/);
  });

  test('a flaky test: rerun once; it passes there → reported flaky, verified under either mode', () => {
    const first = red({ a: 'failed', b: 'passed', c: 'passed', d: 'passed' });
    expect(needsRerun(base, first)).toBe(true);
    const rerun = { exitCode: 0, timedOut: false, report: report({ a: 'passed', b: 'passed', c: 'passed', d: 'passed' }) };
    for (const mode of ['all_pass', 'no_new_failures'] as const) {
      const d = decideVerification(mode, base, first, rerun);
      expect(d.verified).toBe(true);
      expect(d.comparison).toMatchObject({ flaky: ['a'], broken: [], fixed: ['b', 'c'] });
    }
    expect(needsRerun(base, red(fixedOne))).toBe(false);
    expect(needsRerun(null, first)).toBe(false);
  });
});

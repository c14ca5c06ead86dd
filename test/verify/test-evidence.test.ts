import { noNewFailuresNote, testEvidenceSchema, type TestEvidence } from '../../src/verify/test-evidence.js';

const stored = {
  mode: 'no_new_failures',
  format: 'node --test (TAP)',
  totals: { passed: 2, failed: 1, skipped: 0, total: 3 },
  baseline: null,
  fallback: null,
  reason: 'no test that passed on the base fails; still failing as on the base: c',
};

describe('test evidence as stored', () => {
  test('evidence journaled before removed tests were told apart still reads: missing becomes removed', () => {
    const old = { ...stored, comparison: { fixed: ['b'], broken: [], stillFailing: ['c'], newPassing: [], newFailing: [], flaky: [], missing: ['d'] } };
    expect(testEvidenceSchema.parse(old).comparison).toEqual({
      fixed: ['b'],
      broken: [],
      stillFailing: ['c'],
      newPassing: [],
      newFailing: [],
      flaky: [],
      removed: ['d'],
      nowSkipped: [],
      notRunOnBase: [],
    });
  });

  test('new evidence round-trips through JSON unchanged', () => {
    const now: TestEvidence = {
      ...(stored as Omit<TestEvidence, 'comparison'>),
      comparison: { fixed: ['b'], broken: [], stillFailing: ['c'], newPassing: [], newFailing: [], flaky: [], removed: ['d'], nowSkipped: ['e'], notRunOnBase: ['x > y'] },
    };
    expect(testEvidenceSchema.parse(JSON.parse(JSON.stringify(now)))).toEqual(now);
  });
});

describe('noNewFailuresNote: what a verified red run means, for the end line and the Verified-by trailer', () => {
  const tests = testEvidenceSchema.parse({ ...stored, comparison: { fixed: ['b'], broken: [], stillFailing: ['c', 'd'], newPassing: [], newFailing: [], flaky: [] } });
  test('no_new_failures on a non-zero exit names what still fails', () => {
    expect(noNewFailuresNote({ exitCode: 1, tests })).toBe('no new failures (verify_mode no_new_failures); still failing: c, d');
  });
  test('exit 0, or all_pass: the tests passed, no note', () => {
    expect(noNewFailuresNote({ exitCode: 0, tests })).toBeNull();
    expect(noNewFailuresNote({ exitCode: 0 })).toBeNull();
    expect(noNewFailuresNote({ exitCode: 1, tests: { ...tests, mode: 'all_pass' } })).toBeNull();
  });
});

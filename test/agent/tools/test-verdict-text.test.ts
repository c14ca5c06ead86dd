import { evidenceLines, testChangeLines } from '../../../src/agent/tools/test-verdict-text.js';
import { compareReports } from '../../../src/verify/compare-reports.js';
import { parseReport } from '../../../src/verify/parse-report.js';
import type { TestEvidence } from '../../../src/verify/test-evidence.js';
import { readFixture } from '../../verify/report-fixtures.js';

describe('per-test lines for the model and the CLI', () => {
  const base = parseReport(readFixture('cargo', 'fail-fast.txt'));
  const after = parseReport(readFixture('cargo', 'all-pass.txt'));
  if (!base || !after) throw new Error('fixtures did not parse');
  const comparison = compareReports(base, after);

  test('run_tests tells the model which tests the base never reached, not that they are new', () => {
    expect(testChangeLines(after, comparison).split('\n')).toEqual([
      'test report (cargo test): 6 tests, 5 passed, 0 failed, 1 skipped',
      'fail → pass: src/lib.rs > tests::subtracts',
      'not run on the base (its run stopped at a failing test binary before theirs): tests/strings.rs > fails_on_purpose, tests/strings.rs > upper',
    ]);
  });

  test('the CLI lines name removed and now-skipped tests, and why they were allowed', () => {
    const tests: TestEvidence = {
      mode: 'all_pass',
      format: 'cargo test',
      totals: after.totals,
      comparison: { ...comparison, removed: ['src/lib.rs > tests::adds'], nowSkipped: ['tests/strings.rs > upper'] },
      baseline: null,
      fallback: null,
      reason: 'the test command exited 0',
    };
    expect(evidenceLines(tests)).toEqual(
      expect.arrayContaining([
        '  pass → fail: none',
        '  removed: ran on the base, did not run: src/lib.rs > tests::adds',
        '  now skipped: ran on the base: tests/strings.rs > upper',
        '  (tests that ran on the base do not run here: the repository allows it with tests.allow_removed)',
      ]),
    );
  });
});

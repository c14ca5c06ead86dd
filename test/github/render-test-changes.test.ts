import { renderTestChanges } from '../../src/github/render-test-changes.js';
import { emptyComparison } from '../../src/verify/compare-reports.js';
import type { TestEvidence } from '../../src/verify/test-evidence.js';

const evidence = (comparison: TestEvidence['comparison'], totals = { passed: 5, failed: 0, skipped: 1, total: 6 }): TestEvidence => ({
  mode: 'all_pass',
  format: 'cargo test',
  totals,
  comparison,
  baseline: { command: 'cargo test', exitCode: 101, timedOut: false, durationMs: 1000, format: 'cargo test', totals: { passed: 2, failed: 1, skipped: 1, total: 4 }, failing: ['src/lib.rs > tests::subtracts'] },
  fallback: null,
  reason: 'the test command exited 0',
});

describe('renderTestChanges: removed, skipped and not-run-on-the-base tests read right', () => {
  test('a clean fix says none were removed or skipped; tests of a binary the base never reached are not new', () => {
    const body = renderTestChanges(
      evidence({ ...emptyComparison(), fixed: ['src/lib.rs > tests::subtracts'], notRunOnBase: ['tests/strings.rs > upper', 'tests/strings.rs > fails_on_purpose'] }),
    );
    expect(body).toContain('- fail → pass (1): `src/lib.rs > tests::subtracts`');
    expect(body).toContain('- removed or skipped since the base: none');
    expect(body).toContain('- not run on the base (its run stopped at a failing test binary before theirs) (2): `tests/strings.rs > upper`, `tests/strings.rs > fails_on_purpose`');
    expect(body).not.toContain('new tests, passing');
  });

  test('removed and now-skipped tests are named, with the key that allowed them', () => {
    const body = renderTestChanges(evidence({ ...emptyComparison(), removed: ['a > gone'], nowSkipped: ['a > skipped'] }));
    expect(body).toContain('- removed: ran on the base, did not run (1): `a > gone`');
    expect(body).toContain('- now skipped: ran on the base (1): `a > skipped`');
    expect(body).toContain('`tests.allow_removed: true`');
    expect(body).not.toContain('removed or skipped since the base: none');
  });

  test('a summary-only report cannot name them: the counts say fewer ran', () => {
    const body = renderTestChanges(evidence({ ...emptyComparison() }, { passed: 2, failed: 0, skipped: 1, total: 3 }));
    expect(body).toContain('- removed or skipped since the base: fewer tests ran than on the base (2 of 3 tests ran, 3 of 4 on the base; the output names only failures)');
  });
});

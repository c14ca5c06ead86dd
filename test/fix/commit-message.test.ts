import { commitMessage } from '../../src/fix/publisher.js';
import { testEvidenceSchema } from '../../src/verify/test-evidence.js';

const tests = testEvidenceSchema.parse({
  mode: 'no_new_failures',
  format: 'pytest (summary)',
  totals: { passed: 5, failed: 2, skipped: 1, total: 8 },
  comparison: { fixed: ['test_math.py::test_subtracts'], broken: [], stillFailing: ['test_str.py::test_fails_on_purpose', 'test_math.py::TestNested::test_param[2]'], newPassing: [], newFailing: [], flaky: [] },
  baseline: null,
  fallback: null,
  reason: 'no new failures (verify_mode no_new_failures); still failing: …',
});
const input = (exitCode: number) => ({
  verified: { tree: 'a'.repeat(40), command: 'python3 -m pytest -q', exitCode, durationMs: 900, outputTail: '', tests },
  baseCommit: 'b'.repeat(40),
  task: 'Fix #3: subtraction',
  summary: 'fixed it',
  date: new Date(0),
});

describe('the Verified-by trailer', () => {
  test('under no_new_failures on a red run it says so and names what still fails', () => {
    expect(commitMessage(input(1)).split('\n').at(-1)).toBe(
      'Verified-by: python3 -m pytest -q; no new failures (verify_mode no_new_failures); still failing: test_str.py::test_fails_on_purpose, test_math.py::TestNested::test_param[2]',
    );
  });

  test('when the tests passed it is the command, as before', () => {
    expect(commitMessage(input(0)).split('\n').at(-1)).toBe('Verified-by: python3 -m pytest -q');
  });
});

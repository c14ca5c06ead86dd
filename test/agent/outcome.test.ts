import { finishEnding } from '../../src/agent/outcome.js';
import type { AgentState } from '../../src/agent/state.js';
import { testEvidenceSchema } from '../../src/verify/test-evidence.js';

const tests = testEvidenceSchema.parse({
  mode: 'no_new_failures',
  format: 'node --test (TAP)',
  totals: { passed: 2, failed: 1, skipped: 0, total: 3 },
  comparison: { fixed: ['adds'], broken: [], stillFailing: ['unrelated'], newPassing: [], newFailing: [], flaky: [] },
  baseline: null,
  fallback: null,
  reason: 'no new failures (verify_mode no_new_failures); still failing: unrelated',
});
const stateWith = (exitCode: number) => ({ verified: { tree: 't', command: 'npm test', exitCode, durationMs: 1, outputTail: '', tests } }) as unknown as AgentState;

describe('the end line of a verified run', () => {
  test('under no_new_failures on a red run: no new failures, and what still fails — not "the tests passed"', () => {
    expect(finishEnding(stateWith(1), { summary: 's', gaveUp: false }).reason).toBe('on the final tree: no new failures (verify_mode no_new_failures); still failing: unrelated');
  });
  test('exit 0: the tests passed', () => {
    expect(finishEnding(stateWith(0), { summary: 's', gaveUp: false }).reason).toBe('the tests passed on the final tree');
  });
});

import type { EvalRecord } from '../../src/eval/eval-record.js';

const GOLD = 'diff --git a/lib.js b/lib.js\n--- a/lib.js\n+++ b/lib.js\n@@ -1 +1 @@\n-exports.sub = (a, b) => a + b;\n+exports.sub = (a, b) => a - b;\n';

/** An eval record with what a test does not care about filled in. */
export function record(over: Partial<EvalRecord> & Pick<EvalRecord, 'instance_id' | 'status'>): EvalRecord {
  return {
    model: 'test-model',
    agentStatus: over.status === 'not_verified' ? 'gave_up' : 'verified',
    gate: null,
    check: { passed: over.status === 'resolved', failToPass: [], passToPass: [], reason: 'all 1 FAIL_TO_PASS and 1 PASS_TO_PASS tests pass' },
    error: null,
    costUsd: 0.01,
    tokens: { prompt: 1000, completion: 100 },
    steps: 4,
    requests: 4,
    wallMs: 12_000,
    diff: GOLD,
    gold: GOLD,
    task: 'sub subtracts instead of adding',
    ...over,
  };
}

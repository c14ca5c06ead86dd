import * as z from 'zod';

/**
 * What became of one instance:
 * - `resolved`: a verified tree, and the instance's own check passes on it;
 * - `verified_wrong`: a verified tree the instance's check rejects (the tests passed, the issue is
 *   not fixed: the gap the repository's tests leave);
 * - `not_verified`: no verified tree (gave up, a budget, stuck, the gate refused…);
 * - `error`: the instance could not be run (a patch that does not apply, setup failed…).
 */
export const EVAL_STATUSES = ['resolved', 'verified_wrong', 'not_verified', 'error'] as const;
export type EvalStatus = (typeof EVAL_STATUSES)[number];

/** One instance's line of the results JSONL (and its entry in the eval's state file). */
export const EvalRecordSchema = z.object({
  instance_id: z.string(),
  status: z.enum(EVAL_STATUSES),
  model: z.string(),
  /** The agent's own ending (verified, gave_up, budget_exhausted, stuck, model_error…); null on an error. */
  agentStatus: z.string().nullable(),
  /** Why the fix published nothing, as the fix said it (its gate, its last test verdict); null when it did. */
  gate: z.string().nullable(),
  /** The instance's own check on the final tree; null when it could not run. */
  check: z.object({ passed: z.boolean(), failToPass: z.array(z.string()), passToPass: z.array(z.string()), reason: z.string() }).nullable(),
  /** Set when status is error. */
  error: z.string().nullable(),
  /** USD; null when the model's price is unknown. */
  costUsd: z.number().nullable(),
  tokens: z.object({ prompt: z.number(), completion: z.number() }),
  steps: z.number(),
  /** Model requests the instance made (its journal's replies). */
  requests: z.number(),
  wallMs: z.number(),
  /** The model's change against the base with the tests applied (the verified tree's when there is one). */
  diff: z.string(),
  /** The gold change, for the report only. */
  gold: z.string(),
  task: z.string(),
});
export type EvalRecord = z.infer<typeof EvalRecordSchema>;

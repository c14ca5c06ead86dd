/**
 * The budgets of one fix when nobody sets them, the same for the app (`.github/greenfix.yml`) and
 * the CLI (`--max-steps` …). Steps are generous: real models take 40–80 on ordinary tasks; the
 * tokens (100 steps at a full 20,000-token context) and the wall time are what bound the cost.
 */
export const DEFAULT_BUDGETS = { maxSteps: 100, maxTokens: 2_000_000, timeoutMinutes: 30 } as const;

import type { CostBudget } from './cost-budget.js';

/** Limits of one run. Each is checked before every step; the first one reached ends the run. */
export interface Budget {
  maxSteps: number;
  /** Prompt + completion tokens, as the endpoint reported them, over the whole run. */
  maxTokens: number;
  maxWallMs: number;
  /** In money; checked before every model call with that call's worst case (cost-budget.ts). */
  cost?: CostBudget;
}

export type BudgetName = 'steps' | 'tokens' | 'wall_time' | 'cost';

export interface BudgetUsage {
  steps: number;
  tokens: number;
  elapsedMs: number;
}

/** Which budget is used up, if any. */
export function exhaustedBudget(budget: Budget, used: BudgetUsage): BudgetName | null {
  if (used.steps >= budget.maxSteps) return 'steps';
  if (used.tokens >= budget.maxTokens) return 'tokens';
  if (used.elapsedMs >= budget.maxWallMs) return 'wall_time';
  return null;
}

export function describeExhausted(name: BudgetName, budget: Budget, used: BudgetUsage): string {
  switch (name) {
    case 'steps':
      return `step budget exhausted: ${used.steps} of ${budget.maxSteps} steps`;
    case 'tokens':
      return `token budget exhausted: ${used.tokens} of ${budget.maxTokens} tokens`;
    case 'wall_time':
      return `time budget exhausted: ${Math.round(used.elapsedMs / 1000)} s of ${Math.round(budget.maxWallMs / 1000)} s`;
    case 'cost':
      return 'cost budget exhausted';
  }
}

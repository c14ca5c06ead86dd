import { describeCost, formatUsd, usdOf, type TokenCounts } from '../model/cost.js';
import type { ModelPrice } from '../model/prices.js';

/** `max_cost_usd` / `--max-cost`: a budget in money, checked with the worst case of the next call. */
export interface CostBudget {
  maxUsd: number;
  /** Null: the model has no price, so the budget cannot be kept and no call is made. */
  price: ModelPrice | null;
  model: string;
  /** Sent as the call's `max_tokens`: the most a reply can cost. */
  maxReplyTokens: number;
}

/**
 * The next prompt is sized up by this much, from the larger of its estimate (≈ chars/4; code
 * tokenizes denser than prose) and the endpoint's count of the last prompt (a step adds to it).
 */
export const PROMPT_ESTIMATE_MARGIN = 1.25;

/** Completion tokens per call when a cost budget is set; a fix's replies are tool calls, far shorter. */
export const DEFAULT_MAX_REPLY_TOKENS = 4096;

/**
 * Why the next call may not be made, or null. Worst case = spent so far + the next prompt (with the
 * margin, all uncached) + a full `max_tokens` reply, so a run never ends over it.
 */
export function costOverrun(budget: CostBudget, spent: TokenCounts, prompt: { estimate: number; lastReported: number }): string | null {
  if (!budget.price) return `cost budget ${formatUsd(budget.maxUsd)} cannot be kept: ${describeCost({ known: false, model: budget.model })}`;
  const sofar = usdOf(spent, budget.price);
  const nextPrompt = Math.ceil(Math.max(prompt.estimate, prompt.lastReported) * PROMPT_ESTIMATE_MARGIN);
  const next = usdOf({ prompt: nextPrompt, completion: budget.maxReplyTokens }, budget.price);
  if (sofar + next <= budget.maxUsd) return null;
  return `cost budget reached: ${formatUsd(sofar)} spent of ${formatUsd(budget.maxUsd)}, and the next model call could cost up to ${formatUsd(next)}`;
}

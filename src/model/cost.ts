import type { CostText } from '../util/cost-sentence.js';
import type { ModelPrice } from './prices.js';

/** Token counts as the endpoint reported them; `cachedPrompt` is the part of `prompt` served from its cache. */
export interface TokenCounts {
  prompt: number;
  completion: number;
  cachedPrompt?: number;
  /** Some of the counts are estimates: the endpoint reported no usage for some replies. */
  estimated?: boolean;
}

/** A cost in USD (`estimated` when some counts were), or unknown because the model has no price. */
export type Cost = { known: true; usd: number; estimated?: boolean } | { known: false; model: string };

/** USD of `tokens` at `price`; cached prompt tokens at the cached rate. */
export function usdOf(tokens: TokenCounts, price: ModelPrice): number {
  const cached = Math.min(tokens.cachedPrompt ?? 0, tokens.prompt);
  return ((tokens.prompt - cached) * price.input + cached * price.cachedInput + tokens.completion * price.output) / 1_000_000;
}

export function costOf(tokens: TokenCounts, model: string, price: ModelPrice | null): Cost {
  if (!price) return { known: false, model };
  return { known: true, usd: usdOf(tokens, price), ...(tokens.estimated ? { estimated: true } : {}) };
}

/** `$0.84`; below a cent `$0.0012` so a cheap run does not read as free. */
export function formatUsd(usd: number): string {
  return usd === 0 || usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The one wording of a cost in every report. */
export function describeCost(cost: Cost): string {
  if (!cost.known) return `cost unknown (no price for ${cost.model})`;
  return cost.estimated ? `${formatUsd(cost.usd)} (estimated: the endpoint reported no token usage)` : formatUsd(cost.usd);
}

/** The cost as reports carry it (util/cost-sentence.ts). */
export function costText(cost: Cost): CostText {
  return { text: describeCost(cost), known: cost.known };
}

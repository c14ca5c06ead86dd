import type { CostText } from '../util/cost-sentence.js';
import type { ModelPrice } from './prices.js';

/** Token counts as the endpoint reported them; `cachedPrompt` is the part of `prompt` served from its cache. */
export interface TokenCounts {
  prompt: number;
  completion: number;
  cachedPrompt?: number;
}

/** A cost in USD, or unknown because the model has no price. */
export type Cost = { known: true; usd: number } | { known: false; model: string };

/** USD of `tokens` at `price`; cached prompt tokens at the cached rate. */
export function usdOf(tokens: TokenCounts, price: ModelPrice): number {
  const cached = Math.min(tokens.cachedPrompt ?? 0, tokens.prompt);
  return ((tokens.prompt - cached) * price.input + cached * price.cachedInput + tokens.completion * price.output) / 1_000_000;
}

export function costOf(tokens: TokenCounts, model: string, price: ModelPrice | null): Cost {
  return price ? { known: true, usd: usdOf(tokens, price) } : { known: false, model };
}

/** `$0.84`; below a cent `$0.0012` so a cheap run does not read as free. */
export function formatUsd(usd: number): string {
  return usd === 0 || usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The one wording of a cost in every report. */
export function describeCost(cost: Cost): string {
  return cost.known ? formatUsd(cost.usd) : `cost unknown (no price for ${cost.model})`;
}

/** The cost as reports carry it (util/cost-sentence.ts). */
export function costText(cost: Cost): CostText {
  return { text: describeCost(cost), known: cost.known };
}

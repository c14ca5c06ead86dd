import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { ConfigError } from './config-error.js';

/** USD per million tokens. `cached_input` defaults to `input` (an endpoint without a cache discount). */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

const usdPerMillion = z.number().finite().nonnegative().max(10_000);
const PriceEntry = z.strictObject({ input: usdPerMillion, cached_input: usdPerMillion.optional(), output: usdPerMillion });
const PriceFile = z.record(z.string().min(1), PriceEntry);

/**
 * A convenience only, list prices as published when written (USD per million tokens); the
 * operator's GREENFIX_PRICES wins for every model it names. A model in neither has no price.
 */
export const BUILTIN_PRICES: PriceTable = {
  // https://platform.openai.com/docs/pricing (reasoning tokens are billed as output)
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // https://api-docs.deepseek.com/quick_start/pricing-details-usd (cache hit / miss; the reasoner's CoT is output)
  'deepseek-chat': { input: 0.27, cachedInput: 0.07, output: 1.1 },
  'deepseek-reasoner': { input: 0.55, cachedInput: 0.14, output: 2.19 },
  // https://ai.google.dev/gemini-api/docs/pricing (prompts up to 200k tokens; thinking is output)
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  'gemini-3-pro-preview': { input: 2, cachedInput: 0.2, output: 12 },
  // https://docs.claude.com/en/docs/about-claude/pricing (cache reads)
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, output: 15 },
};

/**
 * GREENFIX_PRICES: inline JSON (starts with `{`) or the path of a JSON file, `{ "model": { "input":
 * 0.15, "cached_input": 0.075, "output": 0.6 } }`. Every problem is listed in one ConfigError.
 */
export function parsePrices(value: string | undefined, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): PriceTable {
  if (value === undefined || value.trim() === '') return BUILTIN_PRICES;
  const text = value.trim();
  let raw = text;
  if (!text.startsWith('{')) {
    try {
      raw = readFile(text);
    } catch (err) {
      throw new ConfigError('GREENFIX_PRICES', [`cannot read the price file ${text}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new ConfigError('GREENFIX_PRICES', [`not valid JSON: ${(err as Error).message}`]);
  }
  const parsed = PriceFile.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      'GREENFIX_PRICES',
      parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(top level)'}: ${i.message}`),
    );
  }
  const own = Object.fromEntries(
    Object.entries(parsed.data).map(([model, p]) => [model, { input: p.input, cachedInput: p.cached_input ?? p.input, output: p.output }]),
  );
  return { ...BUILTIN_PRICES, ...own };
}

/** The price of `model`, or null: then every report says "cost unknown", never a guess. */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  return Object.hasOwn(table, model) ? table[model]! : null;
}

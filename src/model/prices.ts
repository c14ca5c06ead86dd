import { readFileSync } from 'node:fs';
import { z } from 'zod';
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
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'deepseek-chat': { input: 0.27, cachedInput: 0.07, output: 1.1 },
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

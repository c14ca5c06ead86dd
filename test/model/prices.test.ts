import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/model/config-error.js';
import { costOf, describeCost, formatUsd, usdOf } from '../../src/model/cost.js';
import { modelConfigOf } from '../../src/model/model-config.js';
import { BUILTIN_PRICES, parsePrices, priceOf } from '../../src/model/prices.js';

function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('parsePrices', () => {
  it('is the built-in table when GREENFIX_PRICES is unset or blank', () => {
    expect(parsePrices(undefined)).toBe(BUILTIN_PRICES);
    expect(parsePrices('  ')).toBe(BUILTIN_PRICES);
  });

  it('reads inline JSON; the operator wins over a built-in entry; cached_input defaults to input', () => {
    const table = parsePrices('{"gpt-4o-mini": {"input": 1, "output": 2}, "my-model": {"input": 0.5, "cached_input": 0.1, "output": 3}}');
    expect(priceOf(table, 'gpt-4o-mini')).toEqual({ input: 1, cachedInput: 1, output: 2 });
    expect(priceOf(table, 'my-model')).toEqual({ input: 0.5, cachedInput: 0.1, output: 3 });
    expect(priceOf(table, 'gpt-4o')).toEqual(BUILTIN_PRICES['gpt-4o']);
  });

  it('reads a JSON file by path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenfix-prices-'));
    try {
      const file = join(dir, 'prices.json');
      writeFileSync(file, JSON.stringify({ local: { input: 0, output: 0 } }));
      expect(priceOf(parsePrices(file), 'local')).toEqual({ input: 0, cachedInput: 0, output: 0 });
      expect(problemsOf(() => parsePrices(join(dir, 'missing.json')))[0]).toMatch(/cannot read the price file .*missing\.json: ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists every problem at once, each naming the model and the field', () => {
    const problems = problemsOf(() => parsePrices('{"a": {"input": -1, "output": 1}, "b": {"input": 1}, "c": {"input": 1, "output": 1, "outptu": 2}}'));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^a\.input: /);
    expect(problems[1]).toMatch(/^b\.output: /);
    expect(problems[2]).toMatch(/^c: .*outptu/);
    expect(problemsOf(() => parsePrices('{not json'))[0]).toMatch(/^not valid JSON/);
  });

  it('an unknown model has no price (never a guess, not even a prototype key)', () => {
    expect(priceOf(BUILTIN_PRICES, 'no-such-model')).toBeNull();
    expect(priceOf(BUILTIN_PRICES, 'constructor')).toBeNull();
  });
});

describe('cost', () => {
  const price = { input: 2.5, cachedInput: 1.25, output: 10 };

  it('prices uncached prompt, cached prompt and completion tokens at their own rates', () => {
    // 600,000 uncached × 2.5 + 400,000 cached × 1.25 + 50,000 × 10, per million = 1.5 + 0.5 + 0.5
    expect(usdOf({ prompt: 1_000_000, cachedPrompt: 400_000, completion: 50_000 }, price)).toBeCloseTo(2.5, 10);
    expect(usdOf({ prompt: 1_000_000, completion: 0 }, price)).toBeCloseTo(2.5, 10);
  });

  it('the built-in table prices the common models with their cached rates, to the cent', () => {
    // gpt-5: 2,000,000 prompt tokens of which 1,600,000 cached, 100,000 output (reasoning included):
    // 400,000 × $1.25 + 1,600,000 × $0.125 + 100,000 × $10 per million = $0.50 + $0.20 + $1.00.
    const tokens = { prompt: 2_000_000, cachedPrompt: 1_600_000, completion: 100_000 };
    expect(describeCost(costOf(tokens, 'gpt-5', priceOf(BUILTIN_PRICES, 'gpt-5')))).toBe('$1.70');
    for (const model of ['gpt-5-mini', 'o4-mini', 'deepseek-reasoner', 'gemini-2.5-pro', 'gemini-3-pro-preview', 'claude-sonnet-4-5']) {
      const p = priceOf(BUILTIN_PRICES, model)!;
      expect(p.cachedInput).toBeLessThan(p.input);
    }
  });

  it('says so when the counts were estimated (an endpoint without usage)', () => {
    expect(describeCost(costOf({ prompt: 336_000, completion: 0, estimated: true }, 'm', price))).toBe('$0.84 (estimated: the endpoint reported no token usage)');
  });

  it('words a known cost in dollars and an unknown one without any number', () => {
    expect(describeCost(costOf({ prompt: 336_000, completion: 0 }, 'm', price))).toBe('$0.84');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.0012)).toBe('$0.0012');
    const unknown = describeCost(costOf({ prompt: 336_000, completion: 0 }, 'mystery-7b', null));
    expect(unknown).toBe('cost unknown (no price for mystery-7b)');
    expect(unknown).not.toMatch(/\d\.\d|\$/);
  });
});

describe('modelConfigOf and GREENFIX_PRICES', () => {
  const settings = { baseURL: 'https://api.openai.com/v1', apiKey: 'sk-1', model: 'gpt-4o-mini' };
  it('lists every price problem at once', () => {
    const problems = problemsOf(() => modelConfigOf({ ...settings, prices: '{"x": {"input": "cheap", "output": -1}}' }));
    expect(problems).toEqual([expect.stringMatching(/^GREENFIX_PRICES: x\.input: /), expect.stringMatching(/^GREENFIX_PRICES: x\.output: /)]);
  });

  it('carries the table', () => {
    expect(priceOf(modelConfigOf({ ...settings, prices: '{"m": {"input": 1, "output": 1}}' }).prices, 'm')).toEqual({ input: 1, cachedInput: 1, output: 1 });
  });
});

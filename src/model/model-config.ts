import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { parsePrices, type PriceTable } from './prices.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';

export interface ModelConfig {
  baseURL: string;
  /** 'none' when unset: local servers (Ollama, vLLM) accept any key. */
  apiKey: string;
  /** A model name, or `scripted:FILE` to replay a script (see createChatModel). */
  model: string;
  /** Per attempt; generous because local models on a CPU are slow. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** GREENFIX_PRICES over the built-in entries (prices.ts). */
  prices: PriceTable;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';
export const DEFAULT_TIMEOUT_MS = 300_000;

/** `VAR=` in a .env file means "not set", not "set to nothing". */
const optional = (schema: z.ZodString) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v), schema.optional());

const ModelEnv = z.object({
  OPENAI_BASE_URL: optional(
    z.string().refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), {
      message: 'must be an http(s) URL such as https://api.openai.com/v1 or http://127.0.0.1:11434/v1',
    }),
  ),
  OPENAI_API_KEY: optional(z.string().regex(/^\S+$/, { message: 'must not contain whitespace (a stray newline or quote?)' })),
  GREENFIX_MODEL: optional(
    z.string().regex(/^(scripted:.+|\S+)$/, { message: 'must be a model name without whitespace (e.g. gpt-4o-mini) or scripted:FILE' }),
  ),
});

/** Reads the model settings from the environment; every problem is reported at once as ConfigError. */
export function modelConfigFromEnv(env: Record<string, string | undefined>): ModelConfig {
  const parsed = ModelEnv.safeParse(env);
  // Messages name the variable and the rule, never the value: OPENAI_API_KEY is a secret.
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  let prices: PriceTable | null = null;
  try {
    prices = parsePrices(env.GREENFIX_PRICES);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems.map((p) => `GREENFIX_PRICES: ${p}`));
  }
  // OpenAI itself answers every call 401 without a key: say so before any setup runs.
  const baseURL = parsed.success ? (parsed.data.OPENAI_BASE_URL ?? DEFAULT_BASE_URL) : DEFAULT_BASE_URL;
  if (parsed.success && !parsed.data.OPENAI_API_KEY && new URL(baseURL).hostname === 'api.openai.com' && !parsed.data.GREENFIX_MODEL?.startsWith('scripted:')) {
    problems.push(`OPENAI_API_KEY: not set, and ${baseURL} needs one (set it, or point OPENAI_BASE_URL at a server that takes no key, such as Ollama's http://127.0.0.1:11434/v1)`);
  }
  if (!parsed.success || !prices || problems.length > 0) throw new ConfigError('environment', problems);
  return {
    baseURL,
    apiKey: parsed.data.OPENAI_API_KEY ?? 'none',
    model: parsed.data.GREENFIX_MODEL ?? DEFAULT_MODEL,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    retry: DEFAULT_RETRY_POLICY,
    prices,
  };
}

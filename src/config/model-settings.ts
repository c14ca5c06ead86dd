import { describeIssue } from './describe-issue.js';
import { EnvConfigError } from './env-config-error.js';
import { EnvSchema, type ParsedEnv } from './env-schema.js';
import type { ModelProfileName, ReasoningEffort } from './model-profile-names.js';

/** The model endpoint's settings, read once from the environment and handed down to model/. */
export interface ModelSettings {
  baseURL: string;
  /** Absent when unset: local servers (Ollama, vLLM) take none. */
  apiKey?: string;
  /** A model name (Azure: the deployment), or `scripted:FILE` to replay a script. */
  model: string;
  /** GREENFIX_MODEL_PROFILE; absent: chosen from the base URL and the model. */
  profile?: ModelProfileName;
  reasoningEffort?: ReasoningEffort;
  /** GREENFIX_PRICES as written (JSON or a file's path); model/prices.ts reads its content. */
  prices?: string;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';

const ModelEnv = EnvSchema.pick({
  OPENAI_BASE_URL: true,
  OPENAI_API_KEY: true,
  GREENFIX_MODEL: true,
  GREENFIX_MODEL_PROFILE: true,
  GREENFIX_REASONING_EFFORT: true,
  GREENFIX_PRICES: true,
});

/**
 * The model's variables alone (`fix` and `chat` read no server variable), every problem at once
 * in an EnvConfigError; `model` (a `--model` flag) replaces GREENFIX_MODEL. Messages name the
 * variable and the rule, never the value: OPENAI_API_KEY is a secret.
 */
export function modelSettingsFromEnv(env: Readonly<Record<string, string | undefined>>, model?: string): ModelSettings {
  const input = { ...env, ...(model ? { GREENFIX_MODEL: model } : {}) };
  const parsed = ModelEnv.safeParse(input);
  if (!parsed.success) throw new EnvConfigError(parsed.error.issues.map((issue) => describeIssue(issue, input)));
  const settings = modelSettingsOf(parsed.data);
  const missingKey = missingKeyProblem(settings);
  if (missingKey) throw new EnvConfigError([missingKey]);
  return settings;
}

/** The settings from parsed variables (loadEnvConfig shares it). */
export function modelSettingsOf(v: Pick<ParsedEnv, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'GREENFIX_MODEL' | 'GREENFIX_MODEL_PROFILE' | 'GREENFIX_REASONING_EFFORT' | 'GREENFIX_PRICES'>): ModelSettings {
  return {
    baseURL: v.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
    ...(v.OPENAI_API_KEY ? { apiKey: v.OPENAI_API_KEY } : {}),
    model: v.GREENFIX_MODEL ?? DEFAULT_MODEL,
    ...(v.GREENFIX_MODEL_PROFILE ? { profile: v.GREENFIX_MODEL_PROFILE } : {}),
    ...(v.GREENFIX_REASONING_EFFORT ? { reasoningEffort: v.GREENFIX_REASONING_EFFORT } : {}),
    ...(v.GREENFIX_PRICES ? { prices: v.GREENFIX_PRICES } : {}),
  };
}

/** OpenAI itself answers every call 401 without a key: say so before any setup runs (serve checks it too). */
export function missingKeyProblem(settings: ModelSettings): string | null {
  if (settings.apiKey !== undefined || settings.model.startsWith('scripted:') || new URL(settings.baseURL).hostname !== 'api.openai.com') return null;
  return `OPENAI_API_KEY: not set, and ${settings.baseURL} needs one (set it, or point OPENAI_BASE_URL at a server that takes no key, such as Ollama's http://127.0.0.1:11434/v1)`;
}

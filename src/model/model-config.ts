import { ConfigError } from './config-error.js';
import { parsePrices, type PriceTable } from './prices.js';
import { profileFor, type ProfileName, type ProviderProfile } from './provider-profile.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';

/**
 * What the model layer needs from configuration. config/model-settings.ts reads the environment
 * (the only reader of these variables) and its `ModelSettings` has this shape; model/ may not import config/.
 */
export interface ModelSettingsInput {
  baseURL: string;
  /** Absent: 'none' is sent (local servers take any key). */
  apiKey?: string;
  model: string;
  profile?: ProfileName;
  reasoningEffort?: string;
  /** GREENFIX_PRICES as written. */
  prices?: string;
}

export interface ModelConfig {
  baseURL: string;
  apiKey: string;
  /** A model name, or `scripted:FILE` to replay a script (see createChatModel). */
  model: string;
  /** The endpoint's rules: the setting, else chosen from the base URL and the model name. */
  profile: ProviderProfile;
  reasoningEffort?: string;
  /** Per attempt; generous because local models on a CPU are slow. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** GREENFIX_PRICES over the built-in entries (prices.ts). */
  prices: PriceTable;
}

export const DEFAULT_TIMEOUT_MS = 300_000;

/** The model's configuration from validated settings; an unreadable price table throws ConfigError. */
export function modelConfigOf(settings: ModelSettingsInput): ModelConfig {
  return {
    baseURL: settings.baseURL,
    apiKey: settings.apiKey ?? 'none',
    model: settings.model,
    profile: profileFor(settings.baseURL, settings.model, settings.profile),
    ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
    timeoutMs: DEFAULT_TIMEOUT_MS,
    retry: DEFAULT_RETRY_POLICY,
    prices: pricesOf(settings.prices),
  };
}

/** GREENFIX_PRICES's content; every problem at once, named as the variable's (ConfigError 'environment'). */
function pricesOf(value: string | undefined): PriceTable {
  try {
    return parsePrices(value);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError('environment', error.problems.map((p) => `GREENFIX_PRICES: ${p}`));
  }
}

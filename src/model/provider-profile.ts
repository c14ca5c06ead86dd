/**
 * What an OpenAI-compatible endpoint accepts and how it answers. Each rule cites where the
 * provider documents it; docs/models.md has the same table for people.
 */
export const PROFILE_NAMES = ['openai', 'openai-reasoning', 'azure', 'deepseek', 'gemini', 'anthropic', 'local', 'generic'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface ProviderProfile {
  name: ProfileName;
  /**
   * The body field of the reply's token limit. OpenAI: "max_tokens … is now deprecated in favor
   * of max_completion_tokens, and is not compatible with o-series models"
   * (https://platform.openai.com/docs/api-reference/chat/create); GPT-5 refuses it as well.
   */
  tokenLimitField: 'max_tokens' | 'max_completion_tokens';
  /** A temperature may be sent (reasoning models refuse any but the default). greenfix sends none today. */
  temperature: boolean;
  /** `reasoning_effort` may be sent (GREENFIX_REASONING_EFFORT); else it is left out. */
  reasoningEffort: boolean;
  /**
   * The reply's `reasoning_content` is kept and sent back with the turn's tool calls. DeepSeek:
   * "For turns that do perform tool calls, the reasoning_content must be fully passed back to the
   * API in all subsequent requests … the API will return a 400 error"
   * (https://api-docs.deepseek.com/guides/thinking_mode). Elsewhere it is dropped.
   */
  replayReasoning: boolean;
  /**
   * Each tool call's `extra_content` is kept and sent back. Gemini: "When using Gemini 3 models,
   * you must pass back thought signatures during function calling, otherwise you will get a
   * validation error" (https://ai.google.dev/gemini-api/docs/thought-signatures); the
   * OpenAI-compatible endpoint carries them as `extra_content.google.thought_signature`.
   */
  replayToolExtra: boolean;
  /**
   * Azure OpenAI: `{endpoint}/openai/deployments/{deployment}/chat/completions?api-version=…`
   * with the key in an `api-key` header
   * (https://learn.microsoft.com/azure/ai-services/openai/reference).
   */
  azure: boolean;
  /** Tool calls written into the text (`<tool_call>{…}</tool_call>`, Hermes/Qwen templates of local servers) are read as calls. */
  toolCallsInText: boolean;
  /** Tokens per request when the model is not in the table below. */
  contextWindow: number;
}

const base = {
  tokenLimitField: 'max_tokens',
  temperature: true,
  reasoningEffort: false,
  replayReasoning: false,
  replayToolExtra: false,
  azure: false,
  toolCallsInText: false,
  contextWindow: 128_000,
} as const satisfies Omit<ProviderProfile, 'name'>;

export const PROFILES: Readonly<Record<ProfileName, ProviderProfile>> = {
  openai: { ...base, name: 'openai', tokenLimitField: 'max_completion_tokens' },
  'openai-reasoning': { ...base, name: 'openai-reasoning', tokenLimitField: 'max_completion_tokens', temperature: false, reasoningEffort: true, contextWindow: 200_000 },
  // Azure takes max_completion_tokens for every model (the o-series refuse max_tokens).
  azure: { ...base, name: 'azure', tokenLimitField: 'max_completion_tokens', azure: true },
  // Thinking mode "does not support the temperature … parameters" (ignored, not refused).
  deepseek: { ...base, name: 'deepseek', temperature: false, reasoningEffort: true, replayReasoning: true },
  gemini: { ...base, name: 'gemini', reasoningEffort: true, replayToolExtra: true, contextWindow: 1_000_000 },
  anthropic: { ...base, name: 'anthropic', contextWindow: 200_000 },
  // Ollama's default context is small; a local server's window is whatever it was started with.
  local: { ...base, name: 'local', toolCallsInText: true, contextWindow: 32_768 },
  generic: { ...base, name: 'generic' },
};

/** Context windows of common models by name prefix (the longest matching prefix wins). */
const CONTEXT_WINDOWS: ReadonlyArray<[prefix: string, tokens: number]> = [
  ['gpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-5', 400_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['deepseek-', 128_000],
  ['gemini-', 1_048_576],
  ['claude-', 200_000],
];

/** The model's context window: by its name where known, else the profile's. */
export function contextWindowOf(profile: ProviderProfile, model: string): number {
  const match = CONTEXT_WINDOWS.filter(([prefix]) => model.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
  return match ? match[1] : profile.contextWindow;
}

/** OpenAI's reasoning models: the o-series and GPT-5 (not gpt-5-chat, a chat model). */
const REASONING_MODEL = /^(o\d|gpt-5(?!-chat))/;

/**
 * The profile of an endpoint: `explicit` (GREENFIX_MODEL_PROFILE) wins; else the base URL's
 * host, and for OpenAI the model name, decide; a loopback or private address is a local server;
 * anything else is generic (plain chat completions, lenient about the answer's shape).
 */
export function profileFor(baseURL: string, model: string, explicit?: ProfileName): ProviderProfile {
  if (explicit) return PROFILES[explicit];
  const host = hostOf(baseURL);
  if (host === 'api.openai.com') return REASONING_MODEL.test(model) ? PROFILES['openai-reasoning'] : PROFILES.openai;
  if (host.endsWith('.openai.azure.com') || host.endsWith('.cognitiveservices.azure.com')) return PROFILES.azure;
  if (host === 'api.deepseek.com') return PROFILES.deepseek;
  if (host === 'generativelanguage.googleapis.com') return PROFILES.gemini;
  if (host === 'api.anthropic.com') return PROFILES.anthropic;
  if (isLocalHost(host)) return PROFILES.local;
  return PROFILES.generic;
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function isLocalHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host === 'host.docker.internal') return true;
  const octets = host.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o))) return false;
  const [a, b] = octets as [number, number];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31);
}

/**
 * GREENFIX_MODEL_PROFILE's values: the profiles of model/provider-profile.ts, which config/ may
 * not import (test/config/model-settings.test.ts checks the two lists agree).
 */
export const MODEL_PROFILE_NAMES = ['openai', 'openai-reasoning', 'azure', 'deepseek', 'gemini', 'anthropic', 'local', 'generic'] as const;
export type ModelProfileName = (typeof MODEL_PROFILE_NAMES)[number];

/** GREENFIX_REASONING_EFFORT: what OpenAI's `reasoning_effort` documents and Gemini and DeepSeek map. */
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

import type { ModelConfig } from './model-config.js';
import { OpenAIChatModel, type ModelDeps } from './openai-chat-model.js';
import { scriptedModelFromFile } from './scripted-model.js';
import { realSleep } from './sleep.js';
import type { ChatModel } from './types.js';

/** The real clock, randomness and network; callers override what their tests control. */
export function defaultModelDeps(): ModelDeps {
  return { sleep: realSleep, random: Math.random, now: Date.now };
}

export const SCRIPTED_PREFIX = 'scripted:';

/**
 * The ChatModel for a validated config: `scripted:FILE` replays that script (demos, end-to-end
 * tests; a bad file throws ConfigError), anything else is a model of the OpenAI-compatible endpoint.
 */
export function createChatModel(config: ModelConfig, deps: Partial<ModelDeps> = {}): ChatModel {
  if (config.model.startsWith(SCRIPTED_PREFIX)) return scriptedModelFromFile(config.model.slice(SCRIPTED_PREFIX.length));
  return new OpenAIChatModel(
    { baseURL: config.baseURL, apiKey: config.apiKey, model: config.model, timeoutMs: config.timeoutMs, retry: config.retry },
    { ...defaultModelDeps(), ...deps },
  );
}

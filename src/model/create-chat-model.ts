import type { ModelConfig } from './model-config.js';
import { OpenAIChatModel, type ModelDeps } from './openai-chat-model.js';
import { realSleep } from './sleep.js';
import type { ChatModel } from './types.js';

/** The real clock, randomness and network; callers override what their tests control. */
export function defaultModelDeps(): ModelDeps {
  return { sleep: realSleep, random: Math.random, now: Date.now };
}

/** The production ChatModel for a validated config. */
export function createChatModel(config: ModelConfig, deps: Partial<ModelDeps> = {}): ChatModel {
  return new OpenAIChatModel(
    { baseURL: config.baseURL, apiKey: config.apiKey, model: config.model, timeoutMs: config.timeoutMs, retry: config.retry },
    { ...defaultModelDeps(), ...deps },
  );
}

import type { ModelConfig } from './model-config.js';
import { lazyChatModel } from './lazy-chat-model.js';
import { contextWindowOf } from './provider-profile.js';
import type { ModelDeps } from './openai-chat-model.js';
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
 * `loadNow`: its client starts loading at once (lazy-chat-model.ts), for a caller that will ask it soon.
 */
export function createChatModel(config: ModelConfig, deps: Partial<ModelDeps> = {}, options: { loadNow?: boolean } = {}): ChatModel {
  if (config.model.startsWith(SCRIPTED_PREFIX)) return scriptedModelFromFile(config.model.slice(SCRIPTED_PREFIX.length));
  // The OpenAI client is loaded at the first request (lazy-chat-model.ts): most of a worker's
  // life, and every path that never asks a model, goes without it.
  return lazyChatModel(config.model, async () => {
    const { OpenAIChatModel } = await import('./openai-chat-model.js');
    // Node loads its fetch implementation (undici) at the first use of Headers, which the
    // client's first request makes: here it loads with the client, off that request's path.
    void globalThis.Headers;
    return new OpenAIChatModel(
      {
        baseURL: config.baseURL,
        apiKey: config.apiKey,
        model: config.model,
        timeoutMs: config.timeoutMs,
        retry: config.retry,
        profile: config.profile,
        ...(config.reasoningEffort ? { reasoningEffort: config.reasoningEffort } : {}),
      },
      { ...defaultModelDeps(), ...deps },
    );
  }, { contextWindow: contextWindowOf(config.profile, config.model), loadNow: options.loadNow === true });
}

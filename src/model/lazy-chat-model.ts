import type { ChatModel, ChatRequest, ChatResponse } from './types.js';

/**
 * A ChatModel whose implementation is loaded at its first request: the OpenAI client (and what
 * it pulls in) costs memory and start-up time on every path that never asks the model (a
 * receiver, `greenfix fix --help`, a setup that fails). A failed load is retried next time.
 */
export function lazyChatModel(name: string, load: () => Promise<ChatModel>, contextWindow?: number): ChatModel {
  let loading: Promise<ChatModel> | null = null;
  return {
    name,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    async complete(request: ChatRequest): Promise<ChatResponse> {
      loading ??= load().catch((error: unknown) => {
        loading = null;
        throw error;
      });
      return (await loading).complete(request);
    },
  };
}

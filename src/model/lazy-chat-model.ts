import type { ChatModel, ChatRequest, ChatResponse } from './types.js';

export interface LazyChatModelOptions {
  contextWindow?: number;
  /**
   * Start loading now rather than at the first request (`greenfix fix`: the load overlaps the
   * worktree's git work instead of delaying the first request). A failed early load is not
   * reported here: the first request loads again and fails with the error.
   */
  loadNow?: boolean;
}

/**
 * A ChatModel whose implementation is loaded at its first request: the OpenAI client (and what
 * it pulls in) costs memory and start-up time on every path that never asks the model (a
 * receiver, `greenfix fix --help`, a setup that fails). A failed load is retried next time.
 */
export function lazyChatModel(name: string, load: () => Promise<ChatModel>, options: LazyChatModelOptions = {}): ChatModel {
  let loading: Promise<ChatModel> | null = null;
  const start = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
  if (options.loadNow) start().catch(() => undefined);
  return {
    name,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    async complete(request: ChatRequest): Promise<ChatResponse> {
      return (await start()).complete(request);
    },
  };
}

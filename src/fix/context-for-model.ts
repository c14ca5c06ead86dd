import type { ContextLimits } from '../agent/context.js';
import { DEFAULT_MAX_REPLY_TOKENS } from '../agent/cost-budget.js';
import type { ChatModel } from '../model/types.js';
import { FIX_CONTEXT } from './defaults.js';

/**
 * The context budget for `model`: the configured tokens (`--context-tokens`, default 20,000),
 * never more than its window leaves after a full reply (provider-profile.ts knows the window of
 * common models and of each kind of endpoint), so a 32k local model and a 400k hosted one both
 * work without a setting.
 */
export function contextForModel(model: ChatModel, contextTokens: number): ContextLimits {
  const window = model.contextWindow;
  const room = window === undefined ? contextTokens : Math.max(2_000, window - DEFAULT_MAX_REPLY_TOKENS);
  return { ...FIX_CONTEXT, maxTokens: Math.min(contextTokens, room) };
}

import type { ChatMessage, ToolSpec } from './types.js';

/** Rough tokens per message for role markers and separators that every chat template adds. */
const PER_MESSAGE_OVERHEAD = 4;

/** ≈ chars/4: cheap, deterministic and close enough for English text and code in most tokenizers. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Estimated prompt size of a conversation (and the tool schemas sent with it). Used for the
 * context budget and when an endpoint reports no usage; never for billing.
 */
export function estimateTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): number {
  let chars = toolChars(tools);
  for (const message of messages) chars += messageChars(message);
  return tokensFor(chars, messages.length);
}

/** What one message adds to the estimate's characters: its text, and its tool call's or result's ids, names and arguments. */
export function messageChars(message: ChatMessage): number {
  let chars = message.content?.length ?? 0;
  if (message.role === 'tool') chars += message.toolCallId.length;
  if (message.role === 'assistant') for (const call of message.toolCalls ?? []) chars += call.id.length + call.name.length + call.arguments.length;
  return chars;
}

/** What the tool schemas add to every request's characters. */
export function toolChars(tools: readonly ToolSpec[]): number {
  let chars = 0;
  for (const tool of tools) chars += JSON.stringify(tool).length;
  return chars;
}

/** The estimate for `chars` characters in `messages` messages: estimateTokens from sums a caller keeps (agent/context.ts). */
export function tokensFor(chars: number, messages: number): number {
  return Math.ceil(chars / 4) + messages * PER_MESSAGE_OVERHEAD;
}

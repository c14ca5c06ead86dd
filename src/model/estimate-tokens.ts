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
  let chars = 0;
  for (const message of messages) {
    chars += message.content?.length ?? 0;
    if (message.role === 'tool') chars += message.toolCallId.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) chars += call.id.length + call.name.length + call.arguments.length;
    }
  }
  for (const tool of tools) chars += JSON.stringify(tool).length;
  return Math.ceil(chars / 4) + messages.length * PER_MESSAGE_OVERHEAD;
}

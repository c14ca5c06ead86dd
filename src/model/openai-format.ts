import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ProviderProfile } from './provider-profile.js';
import type { ChatMessage, ToolSpec } from './types.js';

/**
 * Our messages in chat-completions wire format. What a profile must send back travels with its
 * turn: DeepSeek's `reasoning_content` on an assistant turn with tool calls, Gemini's
 * `extra_content` on each tool call (provider-profile.ts cites both rules); other endpoints get
 * neither, since some refuse fields they do not know.
 */
export function toWireMessages(messages: readonly ChatMessage[], profile: ProviderProfile): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: m.content ?? '' };
        const reasoning = profile.replayReasoning && m.reasoning !== undefined ? { reasoning_content: m.reasoning } : {};
        return {
          role: 'assistant',
          content: m.content,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.arguments },
            ...(profile.replayToolExtra && c.extra ? { extra_content: c.extra } : {}),
          })),
          ...reasoning,
        };
      }
    }
  });
}

export function toWireTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { ModelError } from './errors.js';
import type { ChatMessage, ChatResponse, ToolCall, ToolSpec } from './types.js';

/** Our messages in chat-completions wire format. */
export function toWireMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
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
        return {
          role: 'assistant',
          content: m.content,
          tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        };
      }
    }
  });
}

export function toWireTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** Lenient where compatible servers differ (missing ids or usage), strict where we cannot go on. */
const WireCompletion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish() }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      // OpenAI and DeepSeek-compatible servers report the cached part of the prompt here.
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

/** A chat completion body as our ChatResponse; anything else is ModelError('invalid_response'). */
export function fromWireCompletion(body: unknown): ChatResponse {
  const parsed = WireCompletion.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).slice(0, 3).join('; ');
    throw new ModelError('invalid_response', `the model endpoint's answer is not a chat completion (${where})`);
  }
  const [choice] = parsed.data.choices;
  const message = choice!.message;
  const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((c, i) => ({
    // Some local servers omit ids; the next request must still pair results with calls.
    id: c.id || `call_${i}`,
    name: c.function.name,
    arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}),
  }));
  return {
    message: { role: 'assistant', content: message.content ?? null, ...(toolCalls.length > 0 ? { toolCalls } : {}) },
    usage: usageOf(parsed.data.usage),
  };
}

function usageOf(usage: z.infer<typeof WireCompletion>['usage']): ChatResponse['usage'] {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
    ...(cached > 0 ? { cachedPromptTokens: cached } : {}),
  };
}

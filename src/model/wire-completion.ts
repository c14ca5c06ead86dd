import * as z from 'zod';
import { estimateTokens } from './estimate-tokens.js';
import { ModelError } from './errors.js';
import type { ProviderProfile } from './provider-profile.js';
import { toolCallsInText } from './tool-calls-in-text.js';
import type { AssistantMessage, ChatResponse, ToolCall, Usage } from './types.js';

/** Lenient where compatible servers differ (missing ids or usage, object arguments), strict where we cannot go on. */
const WireCompletion = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish() }),
                extra_content: z.record(z.string(), z.unknown()).nullish(),
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
      total_tokens: z.number().nullish(),
      // OpenAI and DeepSeek-compatible servers report the cached part of the prompt here.
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
      completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

export interface ReadContext {
  profile: ProviderProfile;
  /** Tool-call ids already in the history sent: a reply's ids must differ from all of them. */
  takenIds: ReadonlySet<string>;
  /** The loop's step count: generated ids are `call_<turn>_<i>`, unique across the run. */
  turn: number;
  /** The request's estimated prompt tokens, counted when the endpoint reports no usage. */
  promptEstimate: number;
}

/** A reply as read: the response, and whether the token limit cut it (`finish_reason: "length"`). */
export type WireReply = Omit<ChatResponse, 'truncated'> & { truncated: boolean };

/** A chat completion body as our ChatResponse; anything else is ModelError('invalid_response'). */
export function fromWireCompletion(body: unknown, ctx: ReadContext): WireReply {
  const parsed = WireCompletion.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).slice(0, 3).join('; ');
    throw new ModelError('invalid_response', `the model endpoint's answer is not a chat completion (${where})`);
  }
  const choice = parsed.data.choices[0]!;
  const wire = choice.message;
  let content = wire.content ?? null;
  let calls: Array<Omit<ToolCall, 'id'> & { id?: string | null | undefined }> = (wire.tool_calls ?? []).map((c) => ({
    id: c.id,
    name: c.function.name,
    // Ollama and others send the arguments as an object, not the JSON string OpenAI documents.
    arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}),
    ...(ctx.profile.replayToolExtra && c.extra_content ? { extra: c.extra_content } : {}),
  }));
  if (calls.length === 0 && content && ctx.profile.toolCallsInText) {
    const found = toolCallsInText(content);
    if (found.calls.length > 0) ({ content, calls } = { content: found.rest, calls: found.calls });
  }
  const toolCalls = uniqueIds(calls, ctx);
  const message: AssistantMessage = {
    role: 'assistant',
    content,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(ctx.profile.replayReasoning && toolCalls.length > 0 && wire.reasoning_content ? { reasoning: wire.reasoning_content } : {}),
  };
  // Some local servers say `stop` with tool calls: the calls count, whatever the reason says.
  return { message, usage: usageOf(parsed.data.usage, message, ctx), truncated: choice.finish_reason === 'length' && toolCalls.length === 0 };
}

/** The endpoint's id when it has one that no earlier call used; else `call_<turn>_<i>` (local servers omit or repeat ids). */
function uniqueIds(calls: ReadonlyArray<Omit<ToolCall, 'id'> & { id?: string | null | undefined }>, ctx: ReadContext): ToolCall[] {
  const seen = new Set(ctx.takenIds);
  return calls.map((call, i) => {
    let id = call.id && !seen.has(call.id) ? call.id : `call_${ctx.turn}_${i}`;
    for (let n = 1; seen.has(id); n++) id = `call_${ctx.turn}_${i}_${n}`;
    seen.add(id);
    return { ...call, id };
  });
}

/**
 * Counts as reported; reasoning is output: where `total_tokens` shows reasoning outside
 * `completion_tokens`, it is added to it. No usage at all: both sides are estimated and marked so.
 */
function usageOf(usage: z.infer<typeof WireCompletion>['usage'], message: AssistantMessage, ctx: ReadContext): Usage {
  if (!usage || (usage.prompt_tokens == null && usage.completion_tokens == null)) {
    return { promptTokens: ctx.promptEstimate, completionTokens: estimateTokens([message]) + (message.reasoning ? Math.ceil(message.reasoning.length / 4) : 0), estimated: true };
  }
  const prompt = usage.prompt_tokens ?? 0;
  const reported = usage.completion_tokens ?? 0;
  const completion = usage.total_tokens != null ? Math.max(reported, usage.total_tokens - prompt) : reported;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? completion - reported;
  return {
    promptTokens: prompt,
    completionTokens: completion,
    ...(cached > 0 ? { cachedPromptTokens: cached } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}

import type { Reply } from '../support/fake-openai-server.js';

/**
 * Scripted endpoints that play each provider's documented rules: they refuse what the provider
 * refuses, in its error shape, and answer in its shape. Every rule cites the same source as
 * src/model/provider-profile.ts.
 */
export type ProviderKind = 'openai-reasoning' | 'deepseek' | 'gemini' | 'local';

interface WireCall {
  id?: string;
  function?: { name?: string; arguments?: unknown };
  extra_content?: { google?: { thought_signature?: string } };
}
interface WireBody {
  messages?: Array<{ role: string; tool_calls?: WireCall[]; reasoning_content?: string }>;
  max_tokens?: number;
  temperature?: number;
}

const openaiError = (message: string, param: string): Reply => ({
  status: 400,
  json: { error: { message, type: 'invalid_request_error', param, code: 'unsupported_parameter' } },
});

/** The refusal a provider gives this request body, or null when it accepts it. */
export function rulesOf(kind: ProviderKind): (body: unknown) => Reply | null {
  return (raw) => {
    const body = (raw ?? {}) as WireBody;
    const assistantCalls = (body.messages ?? []).filter((m) => m.role === 'assistant' && (m.tool_calls ?? []).length > 0);
    switch (kind) {
      case 'openai-reasoning':
        // https://platform.openai.com/docs/api-reference/chat/create: max_tokens "is not compatible with o-series models".
        if (body.max_tokens !== undefined) return openaiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens');
        if (body.temperature !== undefined && body.temperature !== 1) return openaiError("Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.", 'temperature');
        return null;
      case 'deepseek':
        // https://api-docs.deepseek.com/guides/thinking_mode: reasoning_content of turns with tool calls must be passed back.
        if (assistantCalls.some((m) => typeof m.reasoning_content !== 'string')) {
          return { status: 400, json: { error: { message: 'The `reasoning_content` in the thinking mode must be passed back to the API.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
        }
        return null;
      case 'gemini': {
        // https://ai.google.dev/gemini-api/docs/thought-signatures: Gemini 3 validates the signatures of function calls.
        const missing = assistantCalls.flatMap((m) => m.tool_calls ?? []).find((c) => c.extra_content?.google?.thought_signature !== signatureOf(c.id ?? ''));
        if (!missing) return null;
        const message = `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${missing.function?.name}\` , position 2. please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
        // The compatible endpoint's error body is an array.
        return { status: 400, json: [{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }] };
      }
      case 'local':
        return null;
    }
  };
}

export interface TurnUsage {
  prompt: number;
  completion: number;
  cached?: number;
  reasoning?: number;
}

/** One tool call in the provider's answer shape (`i`: the reply's number, for ids and signatures). */
export function turnOf(kind: ProviderKind, i: number, name: string, args: Record<string, unknown>, usage: TurnUsage): Reply {
  const id = `call_${kind}_${i}`;
  const call =
    kind === 'local'
      ? // Ollama's shape: arguments as an object, no id.
        { type: 'function', function: { name, arguments: args } }
      : {
          id,
          type: 'function',
          function: { name, arguments: JSON.stringify(args) },
          ...(kind === 'gemini' ? { extra_content: { google: { thought_signature: signatureOf(id) } } } : {}),
        };
  const message = { role: 'assistant', content: null, tool_calls: [call], ...(kind === 'deepseek' ? { reasoning_content: `Thinking about step ${i}: ${name}.` } : {}) };
  const wireUsage = {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    ...(usage.cached !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cached } } : {}),
    ...(usage.reasoning !== undefined ? { completion_tokens_details: { reasoning_tokens: usage.reasoning } } : {}),
  };
  return {
    status: 200,
    json: {
      id: `chatcmpl-${i}`,
      object: 'chat.completion',
      created: 0,
      model: 'm',
      // llama.cpp and Ollama say `stop` even when the reply is a tool call; they may report no usage.
      choices: [{ index: 0, finish_reason: kind === 'local' ? 'stop' : 'tool_calls', message }],
      ...(kind === 'local' ? {} : { usage: wireUsage }),
    },
  };
}

/** The signature the scripted Gemini issues for a call id (opaque to greenfix, checked on the way back). */
export function signatureOf(id: string): string {
  return Buffer.from(`sig:${id}`).toString('base64');
}

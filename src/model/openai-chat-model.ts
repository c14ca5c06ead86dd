import OpenAI, { AzureOpenAI } from 'openai';
import { withAttemptTimeout } from './attempt-timeout.js';
import { azureEndpoint } from './azure-endpoint.js';
import { classifyOpenAIError } from './classify-openai-error.js';
import { estimateTokens } from './estimate-tokens.js';
import { normalisingFetch, type Fetch } from './normalising-fetch.js';
import { toWireMessages, toWireTools } from './openai-format.js';
import { contextWindowOf, PROFILES, type ProviderProfile } from './provider-profile.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import type { Sleep } from './sleep.js';
import type { ChatModel, ChatRequest, ChatResponse } from './types.js';
import { fromWireCompletion } from './wire-completion.js';
import { withRetries } from './with-retries.js';

export interface OpenAIChatModelOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per attempt, ms. */
  timeoutMs: number;
  /** Sent only when set and the profile allows it: reasoning models reject it. */
  temperature?: number;
  retry?: RetryPolicy;
  /** What the endpoint accepts and how it answers; default: generic. */
  profile?: ProviderProfile;
  /** Sent as `reasoning_effort` when the profile takes it. */
  reasoningEffort?: string;
}

/** Everything with an effect outside the computation, injected so tests control time and the network. */
export interface ModelDeps {
  sleep: Sleep;
  random: () => number;
  now: () => number;
  fetch?: Fetch;
}

/**
 * ChatModel over any OpenAI-compatible /chat/completions (OpenAI, Azure, DeepSeek, Gemini, Ollama,
 * vLLM…), speaking each endpoint's rules (provider-profile.ts). The SDK's own retries are off:
 * withRetries owns the policy so it is the same everywhere and testable without real waits.
 */
export class OpenAIChatModel implements ChatModel {
  readonly name: string;
  readonly contextWindow: number;
  /** #private: util.inspect and JSON.stringify of the model never show the client's API key. */
  readonly #client: OpenAI;
  readonly #options: OpenAIChatModelOptions;
  readonly #profile: ProviderProfile;
  readonly #deps: ModelDeps;

  constructor(options: OpenAIChatModelOptions, deps: ModelDeps) {
    this.name = options.model;
    this.#options = options;
    this.#profile = options.profile ?? PROFILES.generic;
    this.contextWindow = contextWindowOf(this.#profile, options.model);
    this.#deps = deps;
    const common = {
      apiKey: options.apiKey,
      maxRetries: 0,
      // Only a backstop: withAttemptTimeout is the deadline (it also covers the body).
      timeout: options.timeoutMs + 5_000,
      fetch: normalisingFetch(deps.fetch ?? globalThis.fetch),
    };
    this.#client = this.#profile.azure
      ? new AzureOpenAI({ ...common, ...azureEndpoint(options.baseURL, options.model) })
      : new OpenAI({ ...common, baseURL: options.baseURL });
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const body = this.#body(request);
    const ctx = { ...this.#options, now: this.#deps.now, profile: this.#profile.name };
    const read = {
      profile: this.#profile,
      takenIds: new Set(request.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : m.role === 'tool' ? [m.toolCallId] : []))),
      turn: request.turn ?? request.messages.filter((m) => m.role === 'assistant').length,
      promptEstimate: estimateTokens(request.messages, request.tools),
    };
    const reply = await withRetries(
      () =>
        withAttemptTimeout(this.#options.timeoutMs, request.signal, async (signal) =>
          fromWireCompletion(await this.#client.chat.completions.create(body, { signal }), read),
        ),
      (error) => classifyOpenAIError(error, ctx),
      this.#options.retry ?? DEFAULT_RETRY_POLICY,
      this.#deps,
      request.signal,
    );
    return { message: reply.message, usage: reply.usage, ...(reply.truncated ? { truncated: true as const } : {}) };
  }

  /** The request body: tool schemas first (a stable prefix for prompt caches), then the messages, then the profile's parameters. */
  #body(request: ChatRequest): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
    const { model, temperature, reasoningEffort } = this.#options;
    const profile = this.#profile;
    return {
      model,
      ...(request.tools.length > 0 ? { tools: toWireTools(request.tools), tool_choice: 'auto' as const } : {}),
      messages: toWireMessages(request.messages, profile),
      ...(temperature !== undefined && profile.temperature ? { temperature } : {}),
      ...(reasoningEffort !== undefined && profile.reasoningEffort ? { reasoning_effort: reasoningEffort as OpenAI.ReasoningEffort } : {}),
      ...(request.maxTokens === undefined ? {} : { [profile.tokenLimitField]: request.maxTokens }),
    };
  }
}

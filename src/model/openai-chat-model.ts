import OpenAI from 'openai';
import { withAttemptTimeout } from './attempt-timeout.js';
import { classifyOpenAIError } from './classify-openai-error.js';
import { fromWireCompletion, toWireMessages, toWireTools } from './openai-format.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import type { Sleep } from './sleep.js';
import type { ChatModel, ChatRequest, ChatResponse } from './types.js';
import { withRetries } from './with-retries.js';

export interface OpenAIChatModelOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per attempt, ms. */
  timeoutMs: number;
  /** Sent only when set: some endpoints and reasoning models reject it. */
  temperature?: number;
  retry?: RetryPolicy;
}

/** Everything with an effect outside the computation, injected so tests control time and the network. */
export interface ModelDeps {
  sleep: Sleep;
  random: () => number;
  now: () => number;
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

/**
 * ChatModel over any OpenAI-compatible /chat/completions (OpenAI, DeepSeek, Ollama, vLLM).
 * The SDK's own retries are off: withRetries owns the policy so it is the same everywhere and
 * testable without real waits.
 */
export class OpenAIChatModel implements ChatModel {
  readonly name: string;
  /** #private: util.inspect and JSON.stringify of the model never show the client's API key. */
  readonly #client: OpenAI;
  readonly #options: OpenAIChatModelOptions;
  readonly #deps: ModelDeps;

  constructor(options: OpenAIChatModelOptions, deps: ModelDeps) {
    this.name = options.model;
    this.#options = options;
    this.#deps = deps;
    this.#client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      maxRetries: 0,
      // Only a backstop: withAttemptTimeout is the deadline (it also covers the body).
      timeout: options.timeoutMs + 5_000,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const { model, temperature } = this.#options;
    const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model,
      messages: toWireMessages(request.messages),
      ...(request.tools.length > 0 ? { tools: toWireTools(request.tools), tool_choice: 'auto' as const } : {}),
      ...(temperature === undefined ? {} : { temperature }),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    };
    const ctx = { ...this.#options, now: this.#deps.now };
    return withRetries(
      () =>
        withAttemptTimeout(this.#options.timeoutMs, request.signal, async (signal) =>
          fromWireCompletion(await this.#client.chat.completions.create(body, { signal })),
        ),
      (error) => classifyOpenAIError(error, ctx),
      this.#options.retry ?? DEFAULT_RETRY_POLICY,
      this.#deps,
      request.signal,
    );
  }
}

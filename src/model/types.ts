/** The provider-neutral shape of a chat with tools. Every model implementation speaks this. */

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model produced; may be invalid, the agent validates it. */
  arguments: string;
  /**
   * The provider's own data about this call, sent back with it unchanged (Gemini 3's
   * `extra_content.google.thought_signature`, provider-profile.ts). Absent for most endpoints.
   */
  extra?: Record<string, unknown>;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}
export interface UserMessage {
  role: 'user';
  content: string;
}
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  toolCalls?: ToolCall[];
  /**
   * The reply's reasoning text (DeepSeek's `reasoning_content`), kept only when the profile must
   * send it back with the turn's tool calls (provider-profile.ts).
   */
  reasoning?: string;
}
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  content: string;
}
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** The part of `promptTokens` the endpoint served from its prompt cache (priced lower), when it says. */
  cachedPromptTokens?: number;
  /** Of `completionTokens`, the reasoning the reply spent before its answer (billed as output). */
  reasoningTokens?: number;
  /** The endpoint reported no usage: these counts are estimates (≈ chars/4), still counted against the budgets. */
  estimated?: boolean;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  /**
   * How many replies this run already had (the loop's step count). Real endpoints ignore it; a
   * scripted model replays by it, since the context budget may drop old replies from `messages`.
   */
  turn?: number;
  /** Most completion tokens of this reply (sent as the profile's token-limit field): set when a cost budget needs a worst case. */
  maxTokens?: number;
  /** 'handoff': the loop asks for a summary of earlier turns (agent/compact.ts), not a next step. */
  purpose?: 'handoff';
  signal?: AbortSignal;
}

export interface ChatResponse {
  message: AssistantMessage;
  usage: Usage;
  /** The token limit cut the reply before it made any tool call (`finish_reason: "length"`). */
  truncated?: true;
}

export interface ChatModel {
  readonly name: string;
  /** Tokens the model reads per request (prompt + reply), when known: the context budget stays under it. */
  readonly contextWindow?: number;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

/** The provider-neutral shape of a chat with tools. Every model implementation speaks this. */

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model produced; may be invalid, the agent validates it. */
  arguments: string;
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
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  /**
   * How many replies this run already had (the loop's step count). Real endpoints ignore it; a
   * scripted model replays by it, since the context budget may drop old replies from `messages`.
   */
  turn?: number;
  /** Most completion tokens of this reply (sent as `max_tokens`): set when a cost budget needs a worst case. */
  maxTokens?: number;
  /** 'handoff': the loop asks for a summary of earlier turns (agent/compact.ts), not a next step. */
  purpose?: 'handoff';
  signal?: AbortSignal;
}

export interface ChatResponse {
  message: AssistantMessage;
  usage: Usage;
}

export interface ChatModel {
  readonly name: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

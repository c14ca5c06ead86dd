import { randomUUID } from 'node:crypto';
import type { AssistantMessage, ChatModel, ChatRequest, ChatResponse, ToolCall } from '../../../src/model/types.js';

export type Turn = AssistantMessage | Error | ((request: ChatRequest) => AssistantMessage);

/** A ChatModel that answers from a list of turns in call order and keeps every request it got. */
export class InlineModel implements ChatModel {
  readonly name = 'inline-test';
  readonly requests: ChatRequest[] = [];
  private next = 0;
  constructor(
    private readonly turns: readonly Turn[],
    private readonly usage = { promptTokens: 100, completionTokens: 10 },
  ) {}

  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push({ ...request, messages: [...request.messages] });
    const turn = this.turns[this.next++];
    if (turn === undefined) throw new Error('InlineModel: script exhausted');
    if (turn instanceof Error) throw turn;
    return { message: typeof turn === 'function' ? turn(request) : turn, usage: this.usage };
  }
}

/** An assistant message with tool calls, given as [name, args] pairs. */
export function calls(...list: Array<[string, Record<string, unknown> | string]>): AssistantMessage {
  const toolCalls: ToolCall[] = list.map(([name, args]) => ({ id: `c_${randomUUID().slice(0, 8)}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }));
  return { role: 'assistant', content: null, toolCalls };
}

export function say(text: string): AssistantMessage {
  return { role: 'assistant', content: text };
}

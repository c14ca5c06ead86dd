import { estimateTokens } from './estimate-tokens.js';
import { readScriptFile, type ScriptTurn } from './scripted-script.js';
import type { AssistantMessage, ChatModel, ChatRequest, ChatResponse } from './types.js';

/** What the model says once the script has nothing left: give up, so a run always ends. */
const EXHAUSTED: ScriptTurn = { content: null, tool_calls: [{ name: 'finish', arguments: { summary: 'script exhausted', gave_up: true } }] };

/**
 * A ChatModel that replays assistant turns, for tests and demos. Stateless: the turn returned is
 * `request.turn` (else the number of assistant messages in the request), so a resumed run picks up where the
 * crashed one stopped.
 */
export class ScriptedModel implements ChatModel {
  constructor(
    private readonly turns: readonly ScriptTurn[],
    readonly name = 'scripted',
  ) {}

  async complete(request: ChatRequest): Promise<ChatResponse> {
    request.signal?.throwIfAborted();
    const index = request.turn ?? request.messages.filter((m) => m.role === 'assistant').length;
    const turn = this.turns[index] ?? EXHAUSTED;
    const message = toMessage(turn, index);
    return {
      message,
      usage: {
        promptTokens: turn.usage?.prompt ?? estimateTokens(request.messages, request.tools),
        completionTokens: turn.usage?.completion ?? estimateTokens([message]),
        ...(turn.usage?.cached ? { cachedPromptTokens: turn.usage.cached } : {}),
      },
    };
  }
}

function toMessage(turn: ScriptTurn, index: number): AssistantMessage {
  const toolCalls = (turn.tool_calls ?? []).map((call, i) => ({
    id: `call_${index}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  return { role: 'assistant', content: turn.content ?? null, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
}

/** Loads and validates a script file (throws ConfigError on a bad file). */
export function scriptedModelFromFile(path: string): ScriptedModel {
  return new ScriptedModel(readScriptFile(path), `scripted:${path}`);
}

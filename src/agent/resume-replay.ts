import type { ToolCall } from '../model/types.js';
import { applyResult } from './act.js';
import type { JournalRecord } from './journal.js';
import { initialStuckState } from './stuck.js';
import type { AgentOutcome, RunState } from './types.js';

/** A call of a journaled assistant message that has no recorded result. */
export interface PendingCall {
  call: ToolCall;
  /** A tool_start was journaled: the call may have run, in part or in full. */
  started: boolean;
}

export interface Replayed {
  state: RunState;
  /** The journal ends in a finish record: the run is over. */
  finished: AgentOutcome | null;
  /** An accepted finish whose finish record never got written. */
  finishEffect: { summary: string; gaveUp: boolean } | null;
  pending: PendingCall[];
}

export class ResumeError extends Error {
  override readonly name = 'ResumeError';
  constructor(readonly kind: 'no_start', message: string) {
    super(message);
  }
}

/**
 * Rebuilds the loop's state from journal records. Pure, and built from the same `applyResult`
 * the live loop uses, so messages, verification and the stuck detector come out as they were.
 */
export function replayJournal(records: readonly JournalRecord[]): Replayed {
  const start = records.find((r) => r.type === 'start');
  if (!start) throw new ResumeError('no_start', 'the journal has no start record: nothing to resume');
  const state: RunState = {
    messages: [{ role: 'system', content: start.systemPrompt }, { role: 'user', content: start.taskMessage }],
    verified: null,
    steps: 0,
    tokens: { prompt: 0, completion: 0 },
    stuck: initialStuckState,
    priorElapsedMs: (records.at(-1)?.at ?? start.at) - start.at,
  };
  const pending = new Map<string, PendingCall>();
  let finished: AgentOutcome | null = null;
  let finishEffect: Replayed['finishEffect'] = null;
  for (const r of records) {
    if (r.type === 'assistant') {
      state.steps = r.step;
      state.tokens = { prompt: state.tokens.prompt + r.usage.promptTokens, completion: state.tokens.completion + r.usage.completionTokens };
      state.messages.push(r.message);
      if (r.message.role === 'assistant') for (const call of r.message.toolCalls ?? []) pending.set(call.id, { call, started: false });
    } else if (r.type === 'tool_start') {
      const p = pending.get(r.callId);
      if (p) p.started = true;
    } else if (r.type === 'tool_end') {
      const p = pending.get(r.callId);
      if (!p) continue; // a result for no known call cannot be placed without breaking a pair
      pending.delete(r.callId);
      applyResult(state, p.call, r.result);
      if (r.result.finish) finishEffect = r.result.finish;
    } else if (r.type === 'verified') state.verified = r.tree;
    else if (r.type === 'observation' || r.type === 'warning') state.messages.push({ role: 'user', content: r.text });
    else if (r.type === 'finish') finished = r.outcome;
  }
  // Calls left behind by an accepted finish are moot: the run ended there.
  return { state, finished, finishEffect, pending: finishEffect ? [] : [...pending.values()] };
}

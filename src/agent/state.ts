import type { ChatMessage, ToolCall } from '../model/types.js';
import type { VerifiedTree } from '../workspace/types.js';
import { headLength } from './context.js';
import { handoffMessage } from './handoff-message.js';
import { taskMessage } from './prompt.js';
import type { Journal } from './journal.js';
import type { JournalEntry } from './journal-schema.js';
import { initialStuckState, observeAction, type StuckState, type StuckVerdict } from './stuck.js';
import type { AgentOutcome, Tokens } from './types.js';

/** A call of a journaled assistant message that has no recorded result yet. */
export interface PendingCall {
  call: ToolCall;
  /** A tool_start was journaled: the call may have run, in part or in full. */
  started: boolean;
}

/**
 * Everything the loop needs to take the next step. It changes only through `applyRecord`: the
 * live loop journals a record and applies it (`record`), resume folds the journal's records.
 */
export interface AgentState {
  messages: ChatMessage[];
  verified: VerifiedTree | null;
  steps: number;
  tokens: Tokens;
  /** The prompt tokens the endpoint reported for the last reply: a floor for the next prompt's worst case. */
  lastPromptTokens: number;
  stuck: StuckState;
  /** Wall time spent by earlier processes of this run (resume). */
  priorElapsedMs: number;
  /** Calls without a result, in order; cleared by an accepted finish (the rest are moot). */
  pending: PendingCall[];
  /** The most serious stuck verdict of this step's results; a warning record answers a `warn`. */
  verdict: StuckVerdict;
  /** An accepted finish call: the run ends with it (its finish record may not be written yet). */
  finish: { summary: string; gaveUp: boolean } | null;
  /** The outcome of a finish record: the run is over. */
  outcome: AgentOutcome | null;
}

/** Before the start record. */
export function emptyAgentState(): AgentState {
  return {
    messages: [],
    verified: null,
    steps: 0,
    tokens: { prompt: 0, completion: 0 },
    lastPromptTokens: 0,
    stuck: initialStuckState,
    priorElapsedMs: 0,
    pending: [],
    verdict: { kind: 'ok' },
    finish: null,
    outcome: null,
  };
}

/** The one place the state changes: what a journal record means for the run. */
export function applyRecord(state: AgentState, r: JournalEntry): void {
  switch (r.type) {
    case 'start':
      state.messages = [{ role: 'system', content: r.systemPrompt }, { role: 'user', content: r.taskMessage }];
      return;
    case 'assistant':
      state.steps = r.step;
      state.tokens = addUsage(state.tokens, r.usage);
      state.lastPromptTokens = r.usage.promptTokens;
      state.messages.push(r.message);
      state.verdict = { kind: 'ok' };
      if (r.message.role === 'assistant') for (const call of r.message.toolCalls ?? []) state.pending.push({ call, started: false });
      return;
    case 'tool_start': {
      const p = state.pending.find((c) => c.call.id === r.callId);
      if (p) p.started = true;
      return;
    }
    case 'tool_end':
      return applyResult(state, r.callId, r.result);
    case 'verified':
      state.verified = r.tree;
      return;
    case 'observation':
      state.messages.push({ role: 'user', content: r.text });
      return;
    case 'warning':
      state.messages.push({ role: 'user', content: r.text });
      state.verdict = { kind: 'ok' };
      return;
    case 'model_error':
      return; // not terminal: the next step asks the model again
    case 'turn':
      // A new request after the last one ended: earlier outcomes and finishes are history.
      state.messages.push({ role: 'user', content: taskMessage(r.text) });
      state.outcome = null;
      state.finish = null;
      state.verdict = { kind: 'ok' };
      return;
    case 'compaction': {
      const head = state.messages.slice(0, headLength(state.messages));
      const kept = r.kept > 0 ? state.messages.slice(-r.kept) : [];
      state.messages = [...head, { role: 'user', content: handoffMessage(r.summary) }, ...kept];
      state.tokens = addUsage(state.tokens, r.usage);
      return;
    }
    case 'finish':
      state.outcome = r.outcome;
      return;
  }
}

function addUsage(tokens: Tokens, usage: Extract<JournalEntry, { type: 'assistant' }>['usage']): Tokens {
  const cached = (tokens.cachedPrompt ?? 0) + (usage.cachedPromptTokens ?? 0);
  return {
    prompt: tokens.prompt + usage.promptTokens,
    completion: tokens.completion + usage.completionTokens,
    ...(cached > 0 ? { cachedPrompt: cached } : {}),
    ...(tokens.estimated || usage.estimated ? { estimated: true } : {}),
  };
}

function applyResult(state: AgentState, callId: string, result: Extract<JournalEntry, { type: 'tool_end' }>['result']): void {
  const i = state.pending.findIndex((c) => c.call.id === callId);
  const p = state.pending[i];
  if (!p) return; // a result for no known call cannot be placed without breaking a pair
  state.pending.splice(i, 1);
  state.messages.push({ role: 'tool', toolCallId: callId, content: result.output });
  if (result.verified) state.verified = result.verified;
  const observed = observeAction(state.stuck, p.call, result);
  state.stuck = observed.state;
  if (observed.verdict.kind !== 'ok' && state.verdict.kind !== 'stuck') state.verdict = observed.verdict;
  if (result.finish) {
    state.finish = result.finish;
    state.pending = [];
  }
}

/** The live loop's way to change its state: journal the record, then apply it. */
export async function record(journal: Journal, state: AgentState, entry: JournalEntry): Promise<void> {
  await journal.append(entry);
  applyRecord(state, entry);
}

import type { JournalRecord } from './journal-schema.js';
import { applyRecord, emptyAgentState, type AgentState } from './state.js';

export class ResumeError extends Error {
  override readonly name = 'ResumeError';
  constructor(readonly kind: 'no_start', message: string) {
    super(message);
  }
}

/**
 * Rebuilds the loop's state from journal records: a fold of the same `applyRecord` the live loop
 * applies, so messages, verification, pending calls and the stuck detector come out as they were.
 */
export function replayJournal(records: readonly JournalRecord[]): AgentState {
  const start = records.find((r) => r.type === 'start');
  if (!start) throw new ResumeError('no_start', 'the journal has no start record: nothing to resume');
  const state = records.reduce((s, r) => (applyRecord(s, r), s), emptyAgentState());
  state.priorElapsedMs = (records.at(-1)?.at ?? start.at) - start.at;
  return state;
}

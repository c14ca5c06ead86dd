import { settle } from './act.js';
import { executorOf } from './dispatch.js';
import type { JournalRecord } from './journal-schema.js';
import { continueRun, runAgent } from './loop.js';
import { repairPending } from './resume-repair.js';
import { replayJournal } from './resume-replay.js';
import type { AgentDeps, AgentInput, AgentOutcome } from './types.js';

/**
 * Continues a run from its journal (`deps.journal` appends to the same one). A finished journal
 * returns its outcome without calling the model; otherwise unanswered calls are repaired, and the
 * step is settled as the live loop would have (finish, stuck, warning, nudge).
 */
export async function resumeAgent(deps: AgentDeps, records: readonly JournalRecord[]): Promise<AgentOutcome> {
  const state = replayJournal(records);
  if (state.outcome) return state.outcome;
  await repairPending(deps, executorOf(deps), state);
  return (await settle(deps, state)) ?? continueRun(deps, state);
}

/** What a job runner calls: a fresh run on an empty journal, a resume otherwise. */
export function runOrResume(deps: AgentDeps, input: AgentInput, records: readonly JournalRecord[]): Promise<AgentOutcome> {
  return records.length === 0 ? runAgent(deps, input) : resumeAgent(deps, records);
}

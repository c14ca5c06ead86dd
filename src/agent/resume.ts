import { afterActions, continueRun, NO_TOOL_CALL, runAgent } from './loop.js';
import type { JournalRecord } from './journal.js';
import { endRun, finishEnding } from './outcome.js';
import { repairPending } from './resume-repair.js';
import { replayJournal } from './resume-replay.js';
import type { AgentDeps, AgentInput, AgentOutcome } from './types.js';
import { executorOf } from './dispatch.js';

/**
 * Continues a run from its journal (`deps.journal` appends to the same one). A finished journal
 * returns its outcome without calling the model; otherwise unanswered calls are repaired first.
 */
export async function resumeAgent(deps: AgentDeps, records: readonly JournalRecord[]): Promise<AgentOutcome> {
  const { state, finished, finishEffect, pending } = replayJournal(records);
  if (finished) return finished;
  if (finishEffect) return endRun(deps, state, finishEnding(state, finishEffect));
  const ending = afterActions(deps, state, await repairPending(deps, executorOf(deps), state, pending));
  if (ending) return endRun(deps, state, ending);
  const last = state.messages.at(-1);
  if (last?.role === 'assistant' && !last.toolCalls?.length) {
    // The crash came between a reply without tool calls and its nudge.
    deps.journal.append({ type: 'observation', step: state.steps, text: NO_TOOL_CALL });
    state.messages.push({ role: 'user', content: NO_TOOL_CALL });
  }
  return continueRun(deps, state);
}

/** What a job runner calls: a fresh run on an empty journal, a resume otherwise. */
export function runOrResume(deps: AgentDeps, input: AgentInput, records: readonly JournalRecord[]): Promise<AgentOutcome> {
  return records.length === 0 ? runAgent(deps, input) : resumeAgent(deps, records);
}

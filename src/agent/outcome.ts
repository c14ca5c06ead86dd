import { noNewFailuresNote } from '../verify/test-evidence.js';
import { record, type AgentState } from './state.js';
import type { AgentDeps, AgentOutcome } from './types.js';

export type Ending = Omit<AgentOutcome, 'verified' | 'steps' | 'tokens'>;

export function toOutcome(state: AgentState, ending: Ending): AgentOutcome {
  return { ...ending, verified: state.verified, steps: state.steps, tokens: { ...state.tokens } };
}

/** Records a final outcome: a journal with a finish record resumes to this outcome, never to the model. */
export async function endRun(deps: AgentDeps, state: AgentState, ending: Ending): Promise<AgentOutcome> {
  const outcome = toOutcome(state, ending);
  await record(deps.journal, state, { type: 'finish', outcome });
  deps.onEvent?.({ type: 'done', outcome });
  return outcome;
}

/** What an accepted `finish` call means for the run. */
export function finishEnding(state: AgentState, finish: { summary: string; gaveUp: boolean }): Ending {
  if (finish.gaveUp) return { status: 'gave_up', reason: 'the agent gave up', summary: finish.summary };
  // The finish tool only accepts a verified tree; this guards the loop against a tool that does not.
  if (!state.verified) return { status: 'gave_up', reason: 'finish was accepted without a verified tree', summary: finish.summary };
  const note = noNewFailuresNote(state.verified);
  const reason = note ? `on the final tree: ${note}` : 'the tests passed on the final tree';
  return { status: 'verified', reason, summary: finish.summary };
}

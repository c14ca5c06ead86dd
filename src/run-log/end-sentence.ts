import type { RunLog } from './run-log.js';

const STATUS: Record<string, string> = {
  verified: 'The agent finished on a verified tree.',
  gave_up: 'The agent gave up.',
  stuck: 'greenfix stopped the agent: it was stuck.',
  budget_exhausted: 'greenfix stopped the agent: a budget ran out.',
  model_error: 'The model could not be reached or answered badly.',
};

/** Why the run ended: greenfix's sentence for the status (the reason, which may quote the model, is shown apart). */
export function endSentence(log: RunLog): string {
  if (!log.end) return 'The run has not finished (it is still going, or a crash stopped it before it could finish).';
  return STATUS[log.end.status] ?? `Ended: ${log.end.status}.`;
}

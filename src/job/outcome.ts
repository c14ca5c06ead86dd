import type { AgentOutcome } from '../agent/types.js';
import { readJournal } from '../agent/journal.js';
import { truncate } from '../util/truncate.js';

/** The one sentence a maintainer reads when there is no pull request. */
export function notVerifiedSentence(outcome: AgentOutcome, reason: string): string {
  switch (outcome.status) {
    case 'gave_up':
      return `The agent gave up without a fix whose tests pass${outcome.summary ? `: ${firstSentence(outcome.summary)}` : '.'}`;
    case 'stuck':
      return `The agent went round in circles and was stopped (${reason}).`;
    case 'budget_exhausted':
      return `The agent ran out of budget before the tests passed (${reason}).`;
    case 'model_error':
      return `The model could not be used (${outcome.error?.kind ?? 'error'}): ${firstSentence(outcome.error?.message ?? reason)}`;
    case 'verified':
      return `No pull request: ${reason}.`;
  }
}

/** The output of the last `run_tests` call in a journal, for a failure report. */
export function lastTestOutput(journalPath: string): string | undefined {
  const records = readJournal(journalPath);
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const record = records[i];
    if (record?.type === 'tool_end' && record.name === 'run_tests') return record.result.output;
  }
  return undefined;
}

function firstSentence(text: string): string {
  return truncate(text.trim().split('\n')[0] ?? '', 300);
}

/**
 * What the last test run and the baseline said, for a run without a verified tree: names the tests
 * that failed (and whether they failed on the base too), so "no pull request" is never unexplained.
 */
export function testsSentence(lastOutput: string | undefined, baselineLine: string | null): string {
  const verdict = lastOutput?.trim().split('\n')[0] ?? '';
  const parts: string[] = [];
  if (verdict.startsWith('tests failed') || verdict.startsWith('tests passed, but')) parts.push(`Last test run: ${verdict.length > 250 ? `${verdict.slice(0, 247)}...` : verdict}`);
  if (baselineLine) parts.push(`Baseline ${baselineLine}.`);
  return parts.join(' ');
}

import { fitCheckRunOutput } from './limits.js';
import { codeBlock, codeSpan, oneLine, tail } from './markdown.js';
import { evidenceFacts, howToCheck } from './render-evidence.js';
import { renderTestChanges } from './render-test-changes.js';
import type { Evidence } from './report.js';
import type { CheckRunOutput } from './types.js';
import { untrustedMarkdown } from './untrusted-text.js';
import { costSentence, type CostText } from '../util/cost-sentence.js';

/** A check run that reports no verified tree (attempts limit, tests never green). */
export interface CheckRunFailure {
  title: string;
  /** One sentence: why. */
  reason: string;
  outputTail?: string;
}

/** The check run greenfix reports on: the evidence of a verified tree, or why there is none. */
export const CHECK_NAME = 'greenfix/verify';

const TEXT_TAIL_CHARS = 60_000;

function isEvidence(input: Evidence | CheckRunFailure): input is Evidence {
  return 'tree' in input;
}

/**
 * Output of `greenfix/verify`: the evidence, or the reason there is none. Within GitHub's limits.
 * `runLog` (the run log's Markdown, which carries the test output) replaces the test output tail.
 */
export function renderCheckRunOutput(input: Evidence | CheckRunFailure, runLog?: string, cost?: CostText): CheckRunOutput {
  const costLine = cost ? `\n\n${costSentence(cost, 'The model usage of this job')}` : '';
  if (isEvidence(input)) {
    return fitCheckRunOutput({
      title: oneLine(
        input.exitCode === 0
          ? `Verified: ${input.command} passed on tree ${input.tree.slice(0, 12)}`
          : `Verified (no new failures): ${input.command} on tree ${input.tree.slice(0, 12)}`,
        255,
      ),
      summary: [evidenceFacts(input), ...(input.tests ? [renderTestChanges(input.tests)] : []), howToCheck(input)].join('\n\n') + costLine,
      text: runLog ?? `Test output (tail) of ${codeSpan(input.command)}:\n\n${codeBlock(tail(input.outputTail, TEXT_TAIL_CHARS))}`,
    });
  }
  const output: CheckRunOutput = {
    title: oneLine(input.title, 255),
    summary: `${untrustedMarkdown(input.reason, 60_000)}${costLine}`,
  };
  if (input.outputTail && input.outputTail.trim() !== '') output.text = codeBlock(tail(input.outputTail, TEXT_TAIL_CHARS));
  return fitCheckRunOutput(output);
}

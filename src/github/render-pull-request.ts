import { fitBody } from './limits.js';
import { renderEvidence } from './render-evidence.js';
import { RETRY_HINT } from './render-status-comment.js';
import type { Evidence } from './report.js';
import { pullRequestMarker } from './status-marker.js';
import { untrustedMarkdown } from './untrusted-text.js';
import { costSentence, type CostText } from '../util/cost-sentence.js';

export interface PullRequestBodyInput {
  issueNumber: number | null;
  /** The model's summary: untrusted. */
  summary: string;
  evidence: Evidence;
  jobId: string;
  /** The closing line; default: `RETRY_HINT`. */
  retryHint?: string;
  /** What the fix cost (model/cost.ts `costText`); absent: not said. */
  cost?: CostText;
}

const SUMMARY_CHARS = 20_000;

/** The PR body (the title is separate): what fixes what, the model's summary, the evidence. */
export function renderPullRequestBody(input: PullRequestBodyInput): string {
  const parts: string[] = [];
  if (input.issueNumber !== null) parts.push(`Fixes #${input.issueNumber}`);
  const summary = untrustedMarkdown(input.summary, SUMMARY_CHARS);
  parts.push(summary === '' ? '*(no summary)*' : summary);
  const why =
    input.evidence.exitCode === 0
      ? 'greenfix opened this pull request because the tests passed on exactly the tree it committed.'
      : 'greenfix opened this pull request under `verify_mode: no_new_failures`: on exactly the tree it committed, no test that passed on the base fails, and the tests listed as fail → pass now pass. The tests listed as still failing failed on the base too.';
  parts.push('---', '### Evidence', why);
  parts.push(renderEvidence(input.evidence));
  if (input.cost) parts.push(costSentence(input.cost, 'The model usage of this fix'));
  parts.push(`<sub>${input.retryHint ?? RETRY_HINT}</sub>`, pullRequestMarker(input.jobId));
  return fitBody(parts.join('\n\n'));
}

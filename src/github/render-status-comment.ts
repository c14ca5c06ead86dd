import { fitBody } from './limits.js';
import { codeBlock, details, oneLine, tail } from './markdown.js';
import { renderEvidence } from './render-evidence.js';
import type { JobOutcomeReport, JobReport, Phase, PhaseName, PhaseState } from './report.js';
import { untrustedMarkdown } from './untrusted-text.js';
import { costSentence, type CostText } from '../util/cost-sentence.js';

/** The last line of a status comment without a PR, and of every PR body: how to ask again or stop. */
export const RETRY_HINT = 'Comment `/agent retry` (optionally followed by instructions) to try again, or `/agent cancel` to stop.';

const ICONS: Record<PhaseState, string> = { done: '✅', running: '⏳', pending: '⬜', failed: '❌', skipped: '⏭️' };
const LABELS: Record<PhaseName, string> = {
  queued: 'Queued',
  workspace: 'Workspace',
  setup: 'Setup',
  baseline: 'Baseline',
  agent: 'Agent',
  verification: 'Verification',
  pull_request: 'Pull request',
};
const HEADINGS: Record<JobReport['kind'], string> = { issue: 'fixing this issue', retry: 'retrying', ci_fix: 'fixing the failing checks', review: 'answering the review', doctor: 'checking this repository' };
const DONE_HEADINGS: Record<JobReport['kind'], string> = { issue: 'this issue', retry: 'this retry', ci_fix: 'the failing checks', review: 'the review', doctor: 'the readiness check' };
const OUTCOME_ICONS: Record<JobOutcomeReport['status'], string> = { published: '🎉', not_verified: '⚠️', failed: '❌', cancelled: '🛑' };
const OUTPUT_TAIL_CHARS = 6000;

function phaseLine(phase: Phase): string {
  const detail = phase.detail ? ` — ${untrustedMarkdown(oneLine(phase.detail, 200), 200)}` : '';
  return `- ${ICONS[phase.state]} ${LABELS[phase.name]}${detail}`;
}

function usage(report: JobReport): string {
  const cost = report.cost ? ` · ${report.cost.text}` : '';
  return `<sub>${report.steps} / ${report.maxSteps} steps · ${report.tokens.toLocaleString('en-US')} tokens${cost} · job ${report.jobId.replace(/[<>&]/g, '_')}</sub>`;
}

/** Links to the run log: the check run on GitHub, and the run page when there is one (URLs are greenfix's own). */
function runLogLinks(o: JobOutcomeReport): string[] {
  const links = [o.runLogUrl ? `[What greenfix did →](${o.runLogUrl})` : null, o.runPageUrl ? `[Run page →](${o.runPageUrl})` : null].filter((l): l is string => l !== null);
  return links.length > 0 ? [links.join(' · ')] : [];
}

function outcome(o: JobOutcomeReport, retryHint: string, cost: CostText | undefined): string {
  const sentence = untrustedMarkdown(oneLine(o.sentence, 500), 500);
  if (o.status === 'published' && o.pullRequest) {
    const parts = [`### ${OUTCOME_ICONS.published} Pull request [#${o.pullRequest.number}](${o.pullRequest.url})`, sentence, ...runLogLinks(o)];
    if (cost) parts.push(costSentence(cost, 'This fix'));
    if (o.evidence) parts.push(details('Evidence: the tests passed on exactly the committed tree', renderEvidence(o.evidence, 3000)));
    return parts.join('\n\n');
  }
  const parts = [`### ${OUTCOME_ICONS[o.status]} ${o.status === 'cancelled' ? 'Cancelled' : 'No pull request'}`, sentence, ...runLogLinks(o)];
  if (cost) parts.push(costSentence(cost, 'This attempt', 'produced no pull request'));
  if (o.outputTail && o.outputTail.trim() !== '') parts.push(details('Last test output', codeBlock(tail(o.outputTail, OUTPUT_TAIL_CHARS))));
  parts.push(retryHint);
  return parts.join('\n\n');
}

/** The status comment: phases as a checklist, usage, and the outcome once there is one. */
export function renderStatusComment(report: JobReport, retryHint = RETRY_HINT): string {
  const heading = report.outcome ? `**greenfix** worked on ${DONE_HEADINGS[report.kind]}.` : `**greenfix** is ${HEADINGS[report.kind]}.`;
  const parts = [heading, report.phases.map(phaseLine).join('\n'), usage(report)];
  if (report.outcome) parts.push(outcome(report.outcome, retryHint, report.cost));
  return fitBody(parts.join('\n\n'));
}

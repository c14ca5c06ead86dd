import { z } from 'zod';
import { agentCommandHelp, type AgentCommand } from './agent-command.js';
import type { BasePayload } from './payload-schemas.js';
import { capBody, closedRefusal, repoRef } from './payload-helpers.js';
import type { JobRequest, ReviewScope, TriggerResult } from './types.js';

/** The pull request as `pull_request_review` and `pull_request_review_comment` carry it. */
export const ReviewedPullRequest = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullish(),
  state: z.string(),
});

export type ReviewedPullRequest = z.infer<typeof ReviewedPullRequest>;

/**
 * The answer to an `/agent` command (or an opted-in `changes_requested` review) on a PR's review:
 * a `review` job for `scope`, a cancel, or the command help. Every answer needs the sender's
 * permission (`authorize`), as for comment commands.
 */
export function reviewCommandResult(p: BasePayload, pr: ReviewedPullRequest, command: AgentCommand | undefined, scope: ReviewScope): TriggerResult {
  const base = { installationId: p.installation.id, repo: repoRef(p), number: pr.number, sender: p.sender.login };
  if (command?.kind === 'cancel') {
    return { type: 'cancel', request: { ...base, target: 'pull_request', reason: '/agent cancel', explicit: true }, authorize: true };
  }
  // `/agent` alone addresses the review; `/agent <word>` that is no command gets the help.
  if (command?.kind === 'unknown' && command.word !== '') {
    return { type: 'refuse', refusal: { ...base, code: 'unknown_command', message: agentCommandHelp(command.word) }, authorize: true };
  }
  if (pr.state === 'closed') {
    const refused = closedRefusal(base, 'pull_request');
    return refused.type === 'refuse' ? { ...refused, authorize: true } : refused;
  }
  const request: JobRequest = {
    ...base,
    kind: 'review',
    target: 'pull_request',
    title: pr.title,
    body: capBody(pr.body),
    review: { ...scope, body: capBody(scope.body) },
    ...(command?.kind === 'retry' && command.instructions !== undefined ? { instructions: command.instructions } : {}),
  };
  return { type: 'job', request, authorize: true, ...(command ? {} : { quiet: true }) };
}

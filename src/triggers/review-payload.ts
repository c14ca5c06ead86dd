import * as z from 'zod';
import { MAX_INSTRUCTIONS_CHARS, type AgentCommand } from './agent-command.js';
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
 * a `review` job for `scope`, or a cancel. Every answer needs the sender's
 * permission (`authorize`), as for comment commands.
 */
export function reviewCommandResult(p: BasePayload, pr: ReviewedPullRequest, command: AgentCommand | undefined, scope: ReviewScope, commandText = ''): TriggerResult {
  const base = { installationId: p.installation.id, repo: repoRef(p), number: pr.number, sender: p.sender.login };
  if (command?.kind === 'cancel') {
    return { type: 'cancel', request: { ...base, target: 'pull_request', reason: '/agent cancel', explicit: true }, authorize: true };
  }
  if (pr.state === 'closed') {
    const refused = closedRefusal(base, 'pull_request');
    return refused.type === 'refuse' ? { ...refused, authorize: true } : refused;
  }
  // `/agent`, `/agent retry [instructions]`, and `/agent <free text>`: in a review, what follows
  // `/agent` is an instruction about the lines, not a mistyped command.
  const instructions = command?.kind === 'retry' ? command.instructions : command?.kind === 'unknown' ? freeText(scope.body || commandText) : undefined;
  const request: JobRequest = {
    ...base,
    kind: 'review',
    target: 'pull_request',
    title: pr.title,
    body: capBody(pr.body),
    review: { ...scope, body: capBody(scope.body) },
    ...(instructions !== undefined ? { instructions } : {}),
  };
  return { type: 'job', request, authorize: true, ...(command ? {} : { quiet: true }) };
}

/** What follows `/agent` (its first line and the rest), capped like `/agent retry` instructions; undefined when empty. */
function freeText(body: string): string | undefined {
  const text = body.trimStart().replace(/^\/agent/i, '').trim();
  if (text === '') return undefined;
  return text.length <= MAX_INSTRUCTIONS_CHARS ? text : `${text.slice(0, MAX_INSTRUCTIONS_CHARS)}\n\n[greenfix: the instructions were cut at ${MAX_INSTRUCTIONS_CHARS} characters of ${text.length}]`;
}

import * as z from 'zod';
import { parseAgentCommand } from './agent-command.js';
import { BasePayload } from './payload-schemas.js';
import { ignored, isBot, isSelf, parsePayload } from './payload-helpers.js';
import { reviewCommandResult, ReviewedPullRequest } from './review-payload.js';
import type { TriggerContext, TriggerResult } from './types.js';

const ReviewPayload = BasePayload.extend({
  review: z.object({ id: z.number().int(), body: z.string().nullish(), state: z.string() }),
  pull_request: ReviewedPullRequest,
});

/**
 * `pull_request_review.submitted`: a review whose body starts with `/agent` (`/agent`, `/agent
 * retry [instructions]`, `/agent cancel`) is one job that answers all of its threads in one
 * commit; with `review.on_request_changes`, so is any `changes_requested` review (no command: a
 * sender without write access gets no answer). greenfix's own and bots' reviews never trigger.
 */
export function pullRequestReviewTrigger(action: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  if (action !== 'submitted') return ignored(`pull_request_review.${action} is not a trigger`);
  const parsed = parsePayload('pull_request_review', ReviewPayload, payload);
  if (!parsed.ok) return parsed.result;
  const p = parsed.data;
  if (isSelf(p.sender, ctx)) return ignored('greenfix ignores its own events');
  if (isBot(p.sender)) return ignored(`bots never start a review job (${p.sender.login})`);
  const body = p.review.body ?? '';
  const command = parseAgentCommand(body);
  const requested = p.review.state.toLowerCase() === 'changes_requested';
  if (!command && !requested) return ignored('the review is not an /agent command');
  if (!command && !ctx.reviewOnRequestChanges) return ignored('changes requested, but `review.on_request_changes` is off');
  return reviewCommandResult(p, p.pull_request, command, { reviewId: p.review.id, body });
}

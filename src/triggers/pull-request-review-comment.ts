import * as z from 'zod';
import { parseAgentCommand } from './agent-command.js';
import { BasePayload } from './payload-schemas.js';
import { ignored, isBot, isSelf, parsePayload } from './payload-helpers.js';
import { reviewCommandResult, ReviewedPullRequest } from './review-payload.js';
import type { TriggerContext, TriggerResult } from './types.js';

const ReviewCommentPayload = BasePayload.extend({
  comment: z.object({ id: z.number().int(), body: z.string().nullish() }),
  pull_request: ReviewedPullRequest,
});

/**
 * `pull_request_review_comment.created` starting with `/agent`: a job for that comment's thread
 * only (a new thread, or a reply in one). The rest of the review is not touched.
 */
export function pullRequestReviewCommentTrigger(action: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  if (action !== 'created') return ignored(`pull_request_review_comment.${action} is not a trigger`);
  const parsed = parsePayload('pull_request_review_comment', ReviewCommentPayload, payload);
  if (!parsed.ok) return parsed.result;
  const p = parsed.data;
  if (isSelf(p.sender, ctx)) return ignored('greenfix ignores its own events');
  const command = parseAgentCommand(p.comment.body ?? '');
  if (!command) return ignored('the review comment is not an /agent command');
  if (isBot(p.sender)) return ignored(`bots never run /agent commands (${p.sender.login})`);
  return reviewCommandResult(p, p.pull_request, command, { commentId: p.comment.id, body: '' }, p.comment.body ?? '');
}

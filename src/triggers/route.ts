import { checkRunTrigger } from './check-run.js';
import { issueCommentTrigger } from './issue-comment.js';
import { issuesTrigger } from './issues.js';
import { ignored } from './payload-helpers.js';
import { pullRequestTrigger } from './pull-request.js';
import { pullRequestReviewTrigger } from './pull-request-review.js';
import { pullRequestReviewCommentTrigger } from './pull-request-review-comment.js';
import type { TriggerContext, TriggerResult } from './types.js';
import type { WebhookEvent } from './webhook-event.js';
import { workflowRunTrigger } from './workflow-run.js';

type Trigger = (action: string, payload: unknown, ctx: TriggerContext) => TriggerResult;

const TRIGGERS: Readonly<Record<string, Trigger>> = {
  issues: issuesTrigger,
  issue_comment: issueCommentTrigger,
  pull_request: pullRequestTrigger,
  pull_request_review: pullRequestReviewTrigger,
  pull_request_review_comment: pullRequestReviewCommentTrigger,
  check_run: checkRunTrigger,
  workflow_run: workflowRunTrigger,
};

/** Routes a delivery by its event name (`issues`, not `issues.labeled`) and action. Never throws. */
export function triggerFor(event: WebhookEvent, ctx: TriggerContext): TriggerResult {
  const trigger = Object.hasOwn(TRIGGERS, event.name) ? TRIGGERS[event.name] : undefined;
  if (!trigger) return ignored(`the ${event.name} event is not a trigger`);
  if (event.action === undefined) return ignored(`malformed ${event.name} payload: action: missing`);
  return trigger(event.action, event.payload, ctx);
}

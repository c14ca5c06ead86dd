import { checkRunTrigger } from './check-run.js';
import { issueCommentTrigger } from './issue-comment.js';
import { issuesTrigger } from './issues.js';
import { ignored } from './payload-helpers.js';
import { pullRequestTrigger } from './pull-request.js';
import { pullRequestReviewTrigger } from './pull-request-review.js';
import { pullRequestReviewCommentTrigger } from './pull-request-review-comment.js';
import type { TriggerContext, TriggerResult } from './types.js';
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

/** Routes a webhook by event name (`issues`, not `issues.labeled`) and the payload's action. Never throws. */
export function triggerFor(event: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  const trigger = Object.hasOwn(TRIGGERS, event) ? TRIGGERS[event] : undefined;
  if (!trigger) return ignored(`the ${event} event is not a trigger`);
  const action = actionOf(payload);
  if (action === undefined) return ignored(`malformed ${event} payload: action: missing`);
  return trigger(action, payload, ctx);
}

function actionOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const action = (payload as { action?: unknown }).action;
  return typeof action === 'string' ? action : undefined;
}

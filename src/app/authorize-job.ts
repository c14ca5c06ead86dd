import type { Permission } from '../github/types.js';
import type { Job, JobQueue } from '../queue/types.js';
import type { AfterAnswer } from './after-answer.js';
import { closeSupersededComments } from './close-waiting-comments.js';
import type { PermissionCache } from './permission-cache.js';
import { answerOutsider, answerRefusal, unauthorizedRefusal, type RefusalDeps } from './refusal-answers.js';

/** The roles that may ask greenfix for work. */
export const WRITE_ROLES: ReadonlySet<Permission> = new Set<Permission>(['admin', 'maintain', 'write']);

export interface AuthorizeJobDeps extends RefusalDeps {
  queue: Pick<JobQueue, 'noteOnce' | 'authorize' | 'get'>;
  permissions: PermissionCache;
  /** Where the 👀 reaction and the superseded jobs' comments run: after this step, never failing it. */
  afterAnswer: AfterAnswer;
  /** Tells local workers a job is waiting. */
  wake: () => void;
}

/** Where 👀 goes once the job is let in: the comment (or issue) that asked; null: nowhere. */
export type ReactTarget = { number: number; commentId: number | null } | null;

export interface AuthorizeOutcome {
  result: 'enqueued' | 'refused' | 'ignored' | 'unchanged';
  detail: string;
}

/**
 * Decides a job the webhook recorded 'authorizing' before it answered: the sender's permission
 * (cached), then the queue's `authorize` (the one place the job's state changes), then what the
 * sender sees. Allowed: the job may run, 👀 on what asked. Refused: the job is gone, and the
 * sender gets what a refused sender always got (the refusal, the outsider reply, or nothing).
 * Only the caller whose `authorize` changed the job says anything, so running this twice for one
 * job (a redelivery, the recovery sweep) answers once. A failed permission lookup leaves the job
 * 'authorizing' for the next attempt.
 */
export async function authorizeJob(deps: AuthorizeJobDeps, job: Job, react: ReactTarget): Promise<AuthorizeOutcome> {
  const { sender, repo, number } = job.request;
  const permission = await deps.permissions.get(repo.id, sender, () => deps.host.permission(sender));
  const allowed = WRITE_ROLES.has(permission);
  const decided = await deps.queue.authorize(job.id, allowed);
  if (!decided.changed) return { result: 'unchanged', detail: `job ${job.id} was decided before (${decided.job?.state ?? 'gone'})` };
  if (!allowed) {
    if (job.authorize === 'quiet') return { result: 'ignored', detail: `${sender} has no write access; not a command, so no answer` };
    if (job.authorize === 'outsider') return answerOutsider(deps, job.request);
    return answerRefusal(deps, unauthorizedRefusal(job.request, permission));
  }
  deps.wake();
  if (react) deps.afterAnswer.run('reaction', () => deps.host.react(react.number, react.commentId, 'eyes'));
  const { superseded } = decided;
  if (superseded.length > 0) deps.afterAnswer.run('closing a waiting status comment', () => closeSupersededComments(deps.host, deps.queue, superseded, number));
  return { result: 'enqueued', detail: `job ${job.id} authorised (${sender}: ${permission})${superseded.length ? `, superseding ${superseded.join(', ')}` : ''}` };
}

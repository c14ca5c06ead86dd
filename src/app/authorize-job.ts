import type { Permission } from '../github/types.js';
import type { AuthorizeResult, Job, JobQueue } from '../queue/types.js';
import { configGateOpen } from '../triggers/config-gate.js';
import type { ConfigGate } from '../triggers/types.js';
import type { AfterAnswer } from './after-answer.js';
import { closeSupersededComments } from './close-waiting-comments.js';
import { cachedRepoConfig, type ConfigCache } from './config-cache.js';
import type { PermissionCache } from './permission-cache.js';
import { answerConfigProblems, answerOutsider, answerRefusal, unauthorizedRefusal, type RefusalDeps } from './refusal-answers.js';

/** The roles that may ask greenfix for work. */
export const WRITE_ROLES: ReadonlySet<Permission> = new Set<Permission>(['admin', 'maintain', 'write']);

export interface AuthorizeJobDeps extends RefusalDeps {
  queue: Pick<JobQueue, 'noteOnce' | 'authorize' | 'get'>;
  permissions: PermissionCache;
  /** Repository configs, shortly kept (config-cache.ts): read for a job gated on the config. */
  configs: ConfigCache;
  /** The raw `.github/greenfix.yml` of the job's repository. */
  readConfig: () => Promise<unknown>;
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
 * Decides a job the webhook recorded 'authorizing' before it answered: first, for a job gated on
 * the repository config (a label, `review.on_request_changes`), the config (cached): a label that
 * is not the configured one, or an option that is off, removes the job without a word; an invalid
 * config removes it with the config-problems comment (once); then the sender's permission
 * (cached), then the queue's `authorize` (the one place the job's state changes), then what the
 * sender sees. Allowed: the job may run, 👀 on what asked. Refused: the job is gone, and the
 * sender gets what a refused sender always got (the refusal, the outsider reply, or nothing).
 * Only the caller whose `authorize` changed the job says anything, so running this twice for one
 * job (a redelivery, the recovery sweep) answers once. A failed permission lookup leaves the job
 * 'authorizing' for the next attempt.
 */
export async function authorizeJob(deps: AuthorizeJobDeps, job: Job, react: ReactTarget): Promise<AuthorizeOutcome> {
  const { sender, repo, number, configGate } = job.request;
  if (configGate) {
    const closed = await closedGate(deps, job, configGate);
    if (closed) return closed;
  }
  const permission = await deps.permissions.get(repo.id, sender, () => deps.host.permission(sender));
  const allowed = WRITE_ROLES.has(permission);
  const decided = await deps.queue.authorize(job.id, allowed);
  if (!decided.changed) return unchanged(job, decided);
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

/** null when the config lets the job in; otherwise the job is removed here and this is the outcome. */
async function closedGate(deps: AuthorizeJobDeps, job: Job, gate: ConfigGate): Promise<AuthorizeOutcome | null> {
  const { repo, number } = job.request;
  const loaded = await cachedRepoConfig(deps.configs, { id: repo.id, owner: repo.owner }, deps.readConfig);
  if (loaded.ok && configGateOpen(gate, { label: loaded.config.label, reviewOnRequestChanges: loaded.config.review.on_request_changes })) return null;
  const decided = await deps.queue.authorize(job.id, false);
  if (!decided.changed) return unchanged(job, decided);
  if (loaded.ok) return { result: 'ignored', detail: 'label' in gate ? `label is not \`${loaded.config.label}\`` : 'changes requested, but `review.on_request_changes` is off' };
  // An invalid config is reported when a job runs; for a review it just means the option is off.
  if (!('label' in gate)) return { result: 'ignored', detail: `invalid .github/greenfix.yml: ${loaded.problems.length} problem(s); \`review.on_request_changes\` taken as off` };
  return answerConfigProblems(deps, { name: gate.label, repoId: repo.id, number }, loaded.problems);
}

const unchanged = (job: Job, decided: AuthorizeResult): AuthorizeOutcome => ({ result: 'unchanged', detail: `job ${job.id} was decided before (${decided.job?.state ?? 'gone'})` });

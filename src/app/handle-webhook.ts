import type { GitHost } from '../github/types.js';
import type { AuthorizeMode, Job, JobQueue } from '../queue/types.js';
import type { RepoConfig } from '../config/repo-config.js';
import { dedupeKeyFor } from '../triggers/dedupe.js';
import { webhookEvent, type WebhookEvent } from '../triggers/webhook-event.js';
import { subjectKey, type CancelRequest, type JobRequest, type Refusal } from '../triggers/types.js';
import type { AfterAnswer } from './after-answer.js';
import { authorizeJob, WRITE_ROLES, type ReactTarget } from './authorize-job.js';
import { closeSupersededComments, closeWaitingComments } from './close-waiting-comments.js';
import type { ConfigCache } from './config-cache.js';
import { decideTrigger } from './decide-trigger.js';
import type { PermissionCache } from './permission-cache.js';
import { answerOutsider, answerRefusal } from './refusal-answers.js';
import type { RefusalLimiter } from './refusal-limiter.js';

export type WebhookResult = 'enqueued' | 'duplicate' | 'ignored' | 'refused' | 'cancelled';

export interface WebhookInput {
  event: string;
  payload: unknown;
  deliveryId: string;
  host: GitHost;
  /** The raw `.github/greenfix.yml` (Probot's `context.config`). */
  readConfig: () => Promise<unknown>;
}

export interface WebhookDeps {
  queue: JobQueue;
  identity: () => Promise<{ appId: number; botLogin: string }>;
  /** Tells local workers a job is waiting. */
  wake: () => void;
  /** Caps refusal comments per repository (all causes, all senders). */
  refusals: RefusalLimiter;
  /** Senders' permissions, shortly kept (permission-cache.ts). */
  permissions: PermissionCache;
  /** Repository configs, shortly kept (config-cache.ts). */
  configs: ConfigCache;
  /** Where work after the answer runs: authorising the sender, reactions, waiting comments. */
  afterAnswer: AfterAnswer;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** The config of a repository without a file (decide-trigger.ts); default: made per delivery. */
  defaults?: Pick<RepoConfig, 'label' | 'branch_prefix'>;
  /** The time of a merge GitHub did not date; default Date.now. */
  now?: () => number;
}

/** A delivery with its payload read once (triggers/webhook-event.ts), as every step below sees it. */
type Delivery = Omit<WebhookInput, 'event'> & { event: WebhookEvent };

type Answer = { result: WebhookResult; detail: string };

/**
 * The webhook's whole job: decide (pure triggers), record, answer. It never runs anything;
 * workers do. A job that needs its sender's write access, or the repository config's word (a
 * label, `review.on_request_changes`: decide-trigger.ts), is recorded 'authorizing' and the answer
 * goes out at once: both are checked after it (authorize-job.ts), before anything the sender can
 * see happens (👀, status comment, the run). A collaborator's refusal is answered once
 * per issue, sender and reason; a command from anyone else once per issue in total; all of them
 * under the repository's refusal rate limit.
 */
export async function handleWebhook(raw: WebhookInput, deps: WebhookDeps): Promise<Answer> {
  const input: Delivery = { ...raw, event: webhookEvent(raw.event, raw.payload) };
  const decided = await decideTrigger(input, deps);
  if ('answer' in decided) return decided.answer;
  const { trigger, gate } = decided;
  switch (trigger.type) {
    case 'ignored':
      return { result: 'ignored', detail: trigger.reason };
    case 'refuse': {
      // Answered before the delivery is, as before: the answer is a comment either way.
      const denied = trigger.authorize ? await unauthorized(input, deps, trigger.refusal) : null;
      return denied ?? answerRefusal(refusalDeps(input, deps), trigger.refusal);
    }
    case 'job': {
      if (!trigger.authorize) return enqueue(input, deps, trigger.request, null);
      const command = trigger.request.kind === 'retry' || trigger.request.kind === 'review';
      const request = gate ? { ...trigger.request, configGate: gate } : trigger.request;
      return enqueue(input, deps, request, trigger.quiet ? 'quiet' : command ? 'outsider' : 'refusal');
    }
    case 'cancel': {
      const { request } = trigger;
      if (trigger.merged) return mergedAndCancelled(input, deps, request, trigger.merged.at);
      if (!trigger.authorize || WRITE_ROLES.has(await permissionOf(input, deps, request))) return cancel(input, deps, request);
      if (request.explicit) return answerOutsider(refusalDeps(input, deps), request);
      // Closing one's own issue is open to anyone: the job goes on, and its status comment says so.
      return { result: 'ignored', detail: `${request.reason} by ${request.sender}, who has no write access: the job goes on` };
    }
  }
}

const refusalDeps = (input: Delivery, deps: WebhookDeps) => ({ host: input.host, queue: deps.queue, refusals: deps.refusals });

/** The sender's role on the delivery's repository, through the short-lived cache. */
function permissionOf(input: Delivery, deps: WebhookDeps, request: Pick<JobRequest, 'repo' | 'sender'>) {
  return deps.permissions.get(request.repo.id, request.sender, () => input.host.permission(request.sender));
}

/** null when the sender may act; otherwise the answer (a command: the outsider reply). */
async function unauthorized(input: Delivery, deps: WebhookDeps, refusal: Refusal): Promise<Answer | null> {
  if (WRITE_ROLES.has(await permissionOf(input, deps, refusal))) return null;
  return answerOutsider(refusalDeps(input, deps), refusal);
}

/**
 * Records the job and answers. One whose sender must be checked (`mode`) is recorded
 * 'authorizing' and checked after the answer; so is one a redelivery finds still waiting (the
 * receiver that recorded it stopped before deciding). The others are let in at once: 👀 now.
 */
async function enqueue(input: Delivery, deps: WebhookDeps, request: JobRequest, mode: AuthorizeMode | null): Promise<Answer> {
  const dedupeKey = dedupeKeyFor(request, input.event.contentKey);
  const { job, created, superseded } = await deps.queue.enqueue(request, { deliveryId: input.deliveryId, ...(dedupeKey ? { dedupeKey } : {}), ...(mode ? { authorize: mode } : {}) });
  if (job.state === 'authorizing') {
    deps.afterAnswer.run('authorising the sender', authorizeLater(deps, job, { host: input.host, readConfig: input.readConfig, deliveryId: input.deliveryId, react: input.event.reactTarget }));
    const gate = request.configGate ? `${'label' in request.configGate ? `the \`${request.configGate.label}\` label` : '`review.on_request_changes`'} and ` : '';
    return created ? { result: 'enqueued', detail: `job ${job.id}, ${gate}${request.sender} to be authorised` } : { result: 'duplicate', detail: `job ${job.id} exists, still to be authorised` };
  }
  if (!created) return { result: 'duplicate', detail: `job ${job.id} exists` };
  deps.wake();
  // After the answer: the job is recorded, which is what GitHub's answer means. Probot spaces
  // writes about a second apart per installation, so an awaited reaction made a burst wait in line.
  react(input, deps);
  const { host } = input; // what the task below holds, not the delivery
  if (superseded.length > 0) deps.afterAnswer.run('closing a waiting status comment', () => closeSupersededComments(host, deps.queue, superseded, request.number));
  return { result: 'enqueued', detail: `job ${job.id}${superseded.length ? `, superseding ${superseded.join(', ')}` : ''}` };
}

/** What authorising a job after the answer needs of its delivery: not the payload, nor Probot's context. */
interface LaterInput {
  host: GitHost;
  readConfig: () => Promise<unknown>;
  deliveryId: string;
  react: ReactTarget;
}

/**
 * The task that authorises the job after the answer. It holds only `later`: under a burst, tasks
 * wait their turn (after-answer.ts) for as long as GitHub takes to answer the ones before, and
 * one that held its delivery kept the parsed payload and Probot's per-event client alive that long,
 * which made every young-generation GC copy them (the ack's p99 tail, docs/decisions.md).
 */
function authorizeLater(deps: WebhookDeps, job: Job, later: LaterInput): () => Promise<void> {
  return async () => {
    const { host, readConfig, deliveryId, react } = later;
    const { result, detail } = await authorizeJob(
      { host, queue: deps.queue, refusals: deps.refusals, permissions: deps.permissions, configs: deps.configs, readConfig, afterAnswer: deps.afterAnswer, wake: deps.wake },
      job,
      react,
    );
    deps.log.info({ deliveryId, result, detail }, `job ${result === 'enqueued' ? 'authorised' : result}`);
  };
}

async function cancel(input: Delivery, deps: WebhookDeps, request: CancelRequest): Promise<Answer> {
  const affected = await deps.queue.cancel(subjectKey(request.repo, request.number), request.reason);
  const sentence = `${request.reason.charAt(0).toUpperCase()}${request.reason.slice(1)}.`;
  const { host } = input; // what the task below holds, not the delivery
  deps.afterAnswer.run('closing a waiting status comment', () => closeWaitingComments(host, affected, sentence));
  if (request.explicit) {
    react(input, deps);
    if (affected.length === 0) await input.host.comment(request.number, 'Nothing to cancel: greenfix is not working on this right now.');
  }
  return { result: 'cancelled', detail: `${affected.length} job(s): ${request.reason}` };
}

/**
 * A merged PR: recorded here, no job (one write; a redelivery or a PR greenfix did not open
 * records nothing), then what ran for it is cancelled like for any closed PR.
 */
async function mergedAndCancelled(input: Delivery, deps: WebhookDeps, request: CancelRequest, at: number | null): Promise<Answer> {
  const recorded = await deps.queue.recordMerge(String(request.repo.id), request.number, at ?? (deps.now ?? Date.now)());
  const { result, detail } = await cancel(input, deps, request);
  return { result, detail: `${detail}; merge ${recorded ? 'recorded' : 'not recorded (not a greenfix PR, or recorded before)'}` };
}

/** 👀 on the comment (or the issue) that asked: seen. After the answer; never fatal. */
function react(input: Delivery, deps: WebhookDeps): void {
  const { host, event } = input;
  const target = event.reactTarget;
  if (target) deps.afterAnswer.run('reaction', () => host.react(target.number, target.commentId, 'eyes'));
}

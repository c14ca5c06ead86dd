import { loadRepoConfig } from '../config/load-repo-config.js';
import { defaultRepoConfig } from '../config/repo-config.js';
import { CONFIG_ERRORS_MARKER, renderConfigProblems } from '../config/render-config-problems.js';
import { renderRefusal } from '../github/render-refusal.js';
import type { GitHost } from '../github/types.js';
import type { Job, JobQueue } from '../queue/types.js';
import { dedupeKeyFor } from '../triggers/dedupe.js';
import { triggerFor } from '../triggers/route.js';
import { webhookEvent, type WebhookEvent } from '../triggers/webhook-event.js';
import { subjectKey, type CancelRequest, type JobRequest, type Refusal, type TriggerContext } from '../triggers/types.js';
import { closeWaitingComments } from './close-waiting-comments.js';
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
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** The time of a merge GitHub did not date; default Date.now. */
  now?: () => number;
}

/** A delivery with its payload read once (triggers/webhook-event.ts), as every step below sees it. */
type Delivery = Omit<WebhookInput, 'event'> & { event: WebhookEvent };

const ALLOWED = new Set(['admin', 'maintain', 'write']);

/**
 * The one answer a command from someone without write access gets, once per issue whoever they
 * are and however many they send; no mention, so it pings nobody.
 */
export const OUTSIDER_REPLY =
  '👋 greenfix only takes `/agent` commands from people with write access to this repository, so I did nothing.\n\n<sub>greenfix · outsider</sub>';

/**
 * The webhook's whole job: decide (pure triggers), check the sender, record, acknowledge. It
 * never runs anything; workers do. A collaborator's refusal is answered once per issue, sender
 * and reason; a command from anyone else once per issue in total; all of them under the
 * repository's refusal rate limit.
 */
export async function handleWebhook(raw: WebhookInput, deps: WebhookDeps): Promise<{ result: WebhookResult; detail: string }> {
  const input: Delivery = { ...raw, event: webhookEvent(raw.event, raw.payload) };
  const ctx = await triggerContext(input, deps);
  if ('problems' in ctx) return ctx.problems;
  const trigger = triggerFor(input.event, ctx);
  switch (trigger.type) {
    case 'ignored':
      return { result: 'ignored', detail: trigger.reason };
    case 'refuse': {
      const denied = trigger.authorize ? await unauthorized(input, deps, trigger.refusal, true) : null;
      return denied ?? refuse(input, deps, trigger.refusal);
    }
    case 'job': {
      if (trigger.quiet && !ALLOWED.has(await input.host.permission(trigger.request.sender))) {
        return { result: 'ignored', detail: `${trigger.request.sender} has no write access; not a command, so no answer` };
      }
      const command = trigger.request.kind === 'retry' || trigger.request.kind === 'review';
      const denied = trigger.authorize && !trigger.quiet ? await unauthorized(input, deps, trigger.request, command) : null;
      return denied ?? enqueue(input, deps, trigger.request);
    }
    case 'cancel': {
      const { request } = trigger;
      if (trigger.merged) return mergedAndCancelled(input, deps, request, trigger.merged.at);
      if (!trigger.authorize || ALLOWED.has(await input.host.permission(request.sender))) return cancel(input, deps, request);
      if (request.explicit) return outsider(input, deps, request);
      // Closing one's own issue is open to anyone: the job goes on, and its status comment says so.
      return { result: 'ignored', detail: `${request.reason} by ${request.sender}, who has no write access: the job goes on` };
    }
  }
}

/**
 * The label and branch prefix come from the repo config; only label events (and reviews that
 * request changes: `review.on_request_changes`) need it read here.
 */
async function triggerContext(input: Delivery, deps: WebhookDeps): Promise<TriggerContext | { problems: { result: WebhookResult; detail: string } }> {
  const { appId, botLogin } = await deps.identity();
  const defaults = defaultRepoConfig();
  const base = { appId, botLogin, label: defaults.label, branchPrefix: defaults.branch_prefix };
  if (input.event.requestsChanges) {
    // An invalid config is reported when a job runs; here it just means the option is off.
    const loaded = await loadRepoConfig(input.readConfig);
    return { ...base, reviewOnRequestChanges: loaded.ok && loaded.config.review.on_request_changes };
  }
  const label = input.event.label;
  if (!label) return base;
  const loaded = await loadRepoConfig(input.readConfig);
  if (loaded.ok) return { ...base, label: loaded.config.label, branchPrefix: loaded.config.branch_prefix };
  // An invalid config cannot say which label it meant; answer on the default label only.
  if (label.name === defaults.label && label.action === 'labeled') {
    const key = `config:${label.repoId}#${label.number}:${loaded.problems.join('|')}`;
    if ((await deps.queue.noteOnce(key)) && deps.refusals.allow(String(label.repoId))) await input.host.upsertComment(label.number, CONFIG_ERRORS_MARKER, renderConfigProblems(loaded.problems));
  }
  return { problems: { result: 'refused', detail: `invalid .github/greenfix.yml: ${loaded.problems.length} problem(s)` } };
}

/** null when the sender may act; otherwise the answer (a command: the outsider reply; a label: a refusal). */
async function unauthorized(
  input: Delivery,
  deps: WebhookDeps,
  request: Pick<JobRequest, 'installationId' | 'repo' | 'number' | 'sender'>,
  command: boolean,
): Promise<{ result: WebhookResult; detail: string } | null> {
  const permission = await input.host.permission(request.sender);
  if (ALLOWED.has(permission)) return null;
  if (command) return outsider(input, deps, request);
  return refuse(input, deps, {
    installationId: request.installationId,
    repo: request.repo,
    number: request.number,
    sender: request.sender,
    code: 'unauthorized',
    message: `@${request.sender} has ${permission} permission; write, maintain or admin is needed`,
  });
}

async function refuse(input: Delivery, deps: WebhookDeps, refusal: Refusal): Promise<{ result: WebhookResult; detail: string }> {
  const detail = `${refusal.code}: ${refusal.message}`;
  if (refusal.number <= 0) return { result: 'refused', detail: `${detail} (no issue or PR to answer on)` };
  if (await deps.queue.noteOnce(`refuse:${subjectKey(refusal.repo, refusal.number)}:${refusal.code}:${refusal.sender}`)) {
    if (!deps.refusals.allow(String(refusal.repo.id))) return { result: 'refused', detail: `${detail} (not answered: refusal rate limit of the repository)` };
    await input.host.comment(refusal.number, renderRefusal(refusal.code, { sender: refusal.sender, message: refusal.message }));
  }
  return { result: 'refused', detail };
}

/** A command from someone without write access: one short reply per issue in total, rate-limited. */
async function outsider(
  input: Delivery,
  deps: WebhookDeps,
  request: Pick<JobRequest, 'repo' | 'number' | 'sender'>,
): Promise<{ result: WebhookResult; detail: string }> {
  const detail = `unauthorized: ${request.sender} has no write access`;
  if (request.number > 0 && (await deps.queue.noteOnce(`outsider:${subjectKey(request.repo, request.number)}`))) {
    if (!deps.refusals.allow(String(request.repo.id))) return { result: 'refused', detail: `${detail} (not answered: refusal rate limit of the repository)` };
    await input.host.comment(request.number, OUTSIDER_REPLY);
  }
  return { result: 'refused', detail };
}

async function enqueue(input: Delivery, deps: WebhookDeps, request: JobRequest): Promise<{ result: WebhookResult; detail: string }> {
  const dedupeKey = dedupeKeyFor(request, input.event.contentKey);
  const { job, created, superseded } = await deps.queue.enqueue(request, { deliveryId: input.deliveryId, ...(dedupeKey ? { dedupeKey } : {}) });
  if (!created) return { result: 'duplicate', detail: `job ${job.id} exists` };
  deps.wake();
  // Not awaited: the job is recorded, which is what GitHub's answer means. Probot spaces writes
  // about a second apart per installation, so an awaited reaction made a burst wait in line.
  void acknowledge(input, deps);
  if (superseded.length > 0) void closeWaiting(input, deps, () => Promise.all(superseded.map((id) => deps.queue.get(id))), `a newer request for #${request.number} replaced it.`);
  return { result: 'enqueued', detail: `job ${job.id}${superseded.length ? `, superseding ${superseded.join(', ')}` : ''}` };
}

async function cancel(input: Delivery, deps: WebhookDeps, request: CancelRequest): Promise<{ result: WebhookResult; detail: string }> {
  const affected = await deps.queue.cancel(subjectKey(request.repo, request.number), request.reason);
  void closeWaiting(input, deps, async () => affected, `${request.reason}.`);
  if (request.explicit) {
    void acknowledge(input, deps);
    if (affected.length === 0) await input.host.comment(request.number, 'Nothing to cancel: greenfix is not working on this right now.');
  }
  return { result: 'cancelled', detail: `${affected.length} job(s): ${request.reason}` };
}

/**
 * A merged PR: recorded here, no job (one write; a redelivery or a PR greenfix did not open
 * records nothing), then what ran for it is cancelled like for any closed PR.
 */
async function mergedAndCancelled(input: Delivery, deps: WebhookDeps, request: CancelRequest, at: number | null): Promise<{ result: WebhookResult; detail: string }> {
  const recorded = await deps.queue.recordMerge(String(request.repo.id), request.number, at ?? (deps.now ?? Date.now)());
  const { result, detail } = await cancel(input, deps, request);
  return { result, detail: `${detail}; merge ${recorded ? 'recorded' : 'not recorded (not a greenfix PR, or recorded before)'}` };
}

/** After the answer, like the reaction: never fatal, never rejects. */
async function closeWaiting(input: Delivery, deps: WebhookDeps, jobs: () => Promise<Array<Job | null>>, sentence: string): Promise<void> {
  try {
    const cancelled = (await jobs()).filter((job): job is Job => job !== null);
    await closeWaitingComments(input.host, cancelled, `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`);
  } catch (error) {
    deps.log.warn({ deliveryId: input.deliveryId, err: error instanceof Error ? error.message : String(error) }, 'closing a waiting status comment failed');
  }
}

/** 👀 on the comment (or the issue) that asked: seen, at once. Never fatal, never rejects. */
async function acknowledge(input: Delivery, deps: WebhookDeps): Promise<void> {
  const target = input.event.reactTarget;
  if (!target) return;
  try {
    await input.host.react(target.number, target.commentId, 'eyes');
  } catch (error) {
    deps.log.warn({ deliveryId: input.deliveryId, err: error instanceof Error ? error.message : String(error) }, 'reaction failed');
  }
}

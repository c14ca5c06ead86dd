import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { subjectKey, type JobRequest } from '../triggers/types.js';
import { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from './backoff.js';
import { claimNext } from './bullmq-claim.js';
import { reserveOn } from './bullmq-reserve.js';
import { openDispatch } from './bullmq-dispatch.js';
import { bullmqPullRequests } from './bullmq-pull-requests.js';
import { defineRecordScripts } from './bullmq-record.js';
import { connectRedis } from './redis-connect.js';
import { createRedisReads } from './redis-reads.js';
import { hashToJob } from './redis-row.js';
import { checkRunAfter, LeaseLostError, type JobQueue, type Lease } from './types.js';

export interface BullmqQueueOptions {
  /** REDIS_URL, e.g. redis://:password@host:6379/0. */
  url: string;
  /** Key prefix; one Redis can hold several queues. Default `{greenfix}` (a hash tag: one cluster slot). */
  prefix?: string;
  /** Clock in epoch ms for greenfix's record (backoff, timestamps); injected by tests. */
  now?: () => number;
  backoff?: BackoffOptions;
  /** How often BullMQ's stalled checker runs (default 30 s). */
  stalledIntervalMs?: number;
  /** Connection errors while ioredis reconnects (default: ignored; commands still reject). */
  onError?: (error: Error) => void;
}

const DEFAULT_MAX_ATTEMPTS = 3;
const QUEUE_NAME = 'jobs';

/**
 * The scale-out JobQueue (REDIS_URL), on BullMQ: BullMQ holds the jobs and dispatches them (wait
 * list, locks as leases, delays, global concurrency, stalled jobs); greenfix's record beside it
 * (atomic Lua, `<prefix>:gf:*`) keeps what BullMQ does not: state and attempts, supersede and
 * cancel flags, dedupe keys, one running job per repository (docs/decisions.md, "Queue on BullMQ").
 * Job data is the JobRequest only, which carries no secrets: Redis stores it in clear.
 * Throws RedisQueueOpenError when Redis cannot be reached.
 */
export async function openBullmqQueue(options: BullmqQueueOptions): Promise<JobQueue> {
  const prefix = options.prefix ?? '{greenfix}';
  const recordPrefix = `${prefix}:gf`;
  const now = options.now ?? Date.now;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const onError = options.onError ?? (() => undefined);
  const redis = await connectRedis(options.url, onError);
  const extra: Redis[] = [];
  const dispatch = openDispatch({
    name: QUEUE_NAME,
    prefix,
    redis,
    stalledIntervalMs: options.stalledIntervalMs ?? 30_000,
    onError,
    now,
    workerConnection: () => {
      const connection = new Redis(options.url, { maxRetriesPerRequest: null });
      connection.on('error', onError);
      extra.push(connection);
      return connection;
    },
  });
  const run = defineRecordScripts(redis, recordPrefix, dispatch.keyBase, now);
  const reads = createRedisReads(redis, recordPrefix, now);
  const pulls = bullmqPullRequests(redis, recordPrefix, now);
  const addToBullmq = async (id: string, request: JobRequest) => {
    await dispatch.add(id, request);
    await redis.zrem(`${recordPrefix}:pending`, id);
  };
  const held = (lease: Lease, answer: unknown) => {
    if (answer === 0) throw new LeaseLostError(lease.jobId);
  };
  return {
    async enqueue(request, enqueueOptions) {
      const maxAttempts = enqueueOptions.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
      const id = jobIdForDelivery(enqueueOptions.deliveryId);
      const subject = subjectKey(request.repo, request.number);
      const [created, hash, superseded, pending] = (await run('gfEnqueue', id, enqueueOptions.deliveryId, enqueueOptions.dedupeKey ?? '',
        subject, String(request.repo.id), JSON.stringify(request), maxAttempts, String(request.installationId), enqueueOptions.authorize ?? '')) as [number, unknown, string[], number];
      const job = hashToJob(hash);
      // Until BullMQ confirms the add, the record says pending: a redelivery or, after a while, a claim adds it.
      if (pending === 1) await addToBullmq(job.id, job.request);
      return { job, created: created === 1, superseded: created === 1 ? superseded : [] };
    },
    claim: (claimOptions) => claimNext({ run, dispatch, addToBullmq }, claimOptions),
    async heartbeat(lease, leaseMs) {
      const [isHeld, reason] = (await run('gfHeartbeat', lease.jobId, lease.token)) as [number, string | null];
      const extended = isHeld === 1 && (await dispatch.extendLock(lease.jobId, lease.token, leaseMs));
      return { held: extended, cancelReason: reason ?? null };
    },
    async complete(lease, result, spendUsd) {
      held(lease, await run('gfComplete', lease.jobId, lease.token, result === undefined ? '' : JSON.stringify(result), spendArg(spendUsd)));
      await dispatch.complete(lease.jobId, lease.token, result);
    },
    async fail(lease, failOptions) {
      const job = await reads.get(lease.jobId);
      if (!job) throw new LeaseLostError(lease.jobId);
      const delay = backoffDelay(job.attempts, backoff);
      const answer = await run('gfFail', lease.jobId, lease.token, failOptions.message, failOptions.retryable ? 1 : 0, job.attempts, delay, spendArg(failOptions.spendUsd));
      held(lease, answer);
      const [state, runAfter] = answer as ['queued' | 'failed', number];
      if (state === 'queued') await dispatch.delay(lease.jobId, lease.token, runAfter);
      else await dispatch.fail(lease.jobId, lease.token, failOptions.message);
      return state;
    },
    async release(lease) {
      held(lease, await run('gfRelease', lease.jobId, lease.token));
      await dispatch.handBack(lease.jobId, lease.token);
    },
    async defer(lease, deferOptions) {
      checkRunAfter(deferOptions.runAfter);
      const answer = await run('gfDefer', lease.jobId, lease.token, deferOptions.runAfter, deferOptions.reason, spendArg(deferOptions.spendUsd));
      held(lease, answer);
      const state = answer as 'queued' | 'cancelled';
      if (state === 'queued') await dispatch.delay(lease.jobId, lease.token, deferOptions.runAfter);
      else await dispatch.fail(lease.jobId, lease.token, 'cancelled');
      return state;
    },
    async markCancelled(lease, spendUsd) {
      held(lease, await run('gfMarkCancelled', lease.jobId, lease.token, spendArg(spendUsd)));
      await dispatch.fail(lease.jobId, lease.token, 'cancelled');
    },
    async authorize(id, allowed) {
      const [changed, hash, superseded, pending] = (await run('gfAuthorize', id, allowed ? 1 : 0)) as [number, unknown[], string[], number];
      const job = hash.length > 0 ? hashToJob(hash) : null;
      if (job && pending === 1) await addToBullmq(job.id, job.request);
      return { job, changed: changed === 1, superseded };
    },
    awaitingAuthorization: async (before, limit) => ((await run('gfAwaiting', before, limit)) as unknown[]).map(hashToJob),
    cancel: async (subject, reason) => ((await run('gfCancel', subject, reason)) as unknown[]).map(hashToJob),
    get: reads.get,
    listBySubject: reads.listBySubject,
    async abandon(workerId) {
      const lapsed = (await run('gfAbandon', workerId)) as string[];
      for (const id of lapsed) await dispatch.handBack(id, '0');
      return lapsed.length;
    },
    noteOnce: reads.noteOnce,
    spent: async (repoKey, since) => Number(await run('gfSpent', 'repo', repoKey, since)),
    spentByInstallation: async (installationKey, since) => Number(await run('gfSpent', 'installation', installationKey, since)),
    reserve: (lease, reserveOptions) => reserveOn(run, lease, reserveOptions),
    prune: async (before, limit) => Number(await run('gfPrune', before, limit)),
    counts: reads.counts,
    ...pulls,
    async close() {
      await dispatch.close();
      for (const connection of [redis, ...extra]) if (connection.status !== 'end') await connection.quit().catch(() => connection.disconnect());
    },
  };
}

/** A spend for the record scripts: exact decimal text ('' = none), never a float rounded by Lua's tostring. */
const spendArg = (usd: number | undefined): string => (usd === undefined || !(usd > 0) ? '' : String(usd));

/** The job id is a function of the delivery id, so a redelivery maps onto the existing job. */
export function jobIdForDelivery(deliveryId: string): string {
  const h = createHash('sha256').update(`delivery:${deliveryId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

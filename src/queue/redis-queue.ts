import { createHash, randomUUID } from 'node:crypto';
import { subjectKey } from '../triggers/types.js';
import { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from './backoff.js';
import { CorruptJobError } from './errors.js';
import { connectRedis } from './redis-connect.js';
import { createRedisReads } from './redis-reads.js';
import { hashToJob, hashToRow } from './redis-row.js';
import { defineScripts, type RunScript } from './redis-scripts.js';
import { LeaseLostError, type Claimed, type ClaimOptions, type JobQueue, type Lease } from './types.js';

export interface RedisQueueOptions {
  /** REDIS_URL, e.g. redis://:password@host:6379/0. */
  url: string;
  /** Key prefix; one Redis can hold several queues. Default `{greenfix}` (a hash tag: one cluster slot). */
  prefix?: string;
  /** Clock in epoch ms, compared in every script instead of Redis TIME; injected by tests. */
  now?: () => number;
  backoff?: BackoffOptions;
  /** Connection errors while ioredis reconnects (default: ignored; commands still reject). */
  onError?: (error: Error) => void;
}

const DEFAULT_MAX_ATTEMPTS = 3;

/** The job id is a function of the delivery id, so a redelivery maps onto the existing job key. */
export function jobIdForDelivery(deliveryId: string): string {
  const h = createHash('sha256').update(`delivery:${deliveryId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * The scale-out JobQueue (REDIS_URL): the same promises as the SQLite queue, kept by atomic Lua
 * scripts over Redis hashes and sorted sets (docs/decisions.md, "Queue on Redis"). Job data is the
 * JobRequest only, which carries no secrets: Redis stores it in clear.
 * Throws RedisQueueOpenError when Redis cannot be reached.
 */
export async function openRedisQueue(options: RedisQueueOptions): Promise<JobQueue> {
  const prefix = options.prefix ?? '{greenfix}';
  const now = options.now ?? Date.now;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const redis = await connectRedis(options.url, options.onError ?? (() => undefined));
  const run = defineScripts(redis, prefix, now);
  const reads = createRedisReads(redis, prefix);
  const mustHold = (lease: Lease, answer: unknown) => {
    if (answer === 0) throw new LeaseLostError(lease.jobId);
  };
  return {
    async enqueue(request, enqueueOptions) {
      const maxAttempts = enqueueOptions.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
      const id = jobIdForDelivery(enqueueOptions.deliveryId);
      const subject = subjectKey(request.repo, request.number);
      const [created, hash, superseded] = (await run('gfEnqueue', id, enqueueOptions.deliveryId, enqueueOptions.dedupeKey ?? '', subject,
        String(request.repo.id), JSON.stringify(request), maxAttempts)) as [number, unknown, string[]];
      return { job: hashToJob(hash), created: created === 1, superseded: created === 1 ? superseded : [] };
    },
    claim: (claimOptions) => claim(run, claimOptions),
    async heartbeat(lease, leaseMs) {
      const [held, reason] = (await run('gfHeartbeat', lease.jobId, lease.token, leaseMs)) as [number, string | null];
      return { held: held === 1, cancelReason: reason ?? null };
    },
    async complete(lease, result) {
      mustHold(lease, await run('gfComplete', lease.jobId, lease.token, result === undefined ? '' : JSON.stringify(result)));
    },
    async fail(lease, failOptions) {
      const job = await reads.get(lease.jobId);
      if (!job) throw new LeaseLostError(lease.jobId);
      const delay = backoffDelay(job.attempts, backoff);
      const answer = await run('gfFail', lease.jobId, lease.token, failOptions.message, failOptions.retryable ? 1 : 0, job.attempts, delay);
      mustHold(lease, answer);
      return answer as 'queued' | 'failed';
    },
    release: async (lease) => mustHold(lease, await run('gfRelease', lease.jobId, lease.token)),
    markCancelled: async (lease) => mustHold(lease, await run('gfMarkCancelled', lease.jobId, lease.token)),
    cancel: async (subject, reason) => ((await run('gfCancel', subject, reason)) as unknown[]).map(hashToJob),
    get: reads.get,
    listBySubject: reads.listBySubject,
    abandon: async (workerId) => Number(await run('gfAbandon', workerId)),
    noteOnce: reads.noteOnce,
    counts: reads.counts,
    async close() {
      if (redis.status !== 'end') await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Claims until a job parses: a damaged hash is failed with the CorruptJobError message, and the next is taken. */
async function claim(run: RunScript, options: ClaimOptions): Promise<Claimed | null> {
  for (;;) {
    const token = randomUUID();
    const hash = await run('gfClaim', token, options.workerId, options.leaseMs, options.maxRunning);
    if (hash === null) return null;
    try {
      const job = hashToJob(hash);
      return { job, lease: { jobId: job.id, token } };
    } catch (error) {
      if (!(error instanceof CorruptJobError)) throw error;
      await run('gfFail', hashToRow(hash).id, token, error.message, 0, '', 0);
    }
  }
}

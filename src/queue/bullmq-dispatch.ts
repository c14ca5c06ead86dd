import { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobRequest } from '../triggers/types.js';

/** BullMQ's part of the queue: which job is next, its lock, its delay, and how it finished. */
export interface Dispatch {
  /** Key base of the queue's BullMQ keys (`<prefix>:<name>:`): a job's lock is `<base><id>:lock`. */
  keyBase: string;
  /** Adds the job; BullMQ ignores a second add of the same id. */
  add(id: string, request: JobRequest): Promise<void>;
  /** The next job BullMQ hands out (now locked with `token`), or null. */
  next(token: string, leaseMs: number, maxRunning: number): Promise<string | null>;
  extendLock(id: string, token: string, leaseMs: number): Promise<boolean>;
  /** Into BullMQ's delayed set until `at` (epoch ms by greenfix's clock). */
  delay(id: string, token: string, at: number): Promise<void>;
  /** Back to the wait list; token '0' when the lock is gone or unknown. */
  handBack(id: string, token: string): Promise<void>;
  complete(id: string, token: string, result: unknown): Promise<void>;
  fail(id: string, token: string, reason: string): Promise<void>;
  /** A delayed job becomes waiting now (a no-op for a job no longer delayed). */
  promote(id: string): Promise<void>;
  close(): Promise<void>;
}

export interface DispatchOptions {
  name: string;
  prefix: string;
  /** The queue's connection (shared with the record). */
  redis: Redis;
  /** A second connection for the worker side, made on the first `next` (receivers never need it). */
  workerConnection: () => Redis;
  /** How often BullMQ's stalled checker returns orphaned active jobs to the wait list. */
  stalledIntervalMs: number;
  /** Errors BullMQ's worker reports in the background (its stalled checker's, its connection's). */
  onError: (error: Error) => void;
  /** greenfix's clock (the record's): `delay` times are on it. Default Date.now. */
  now?: () => number;
}

/** Finished jobs stay visible in BullMQ for a week (the record keeps greenfix's history). */
const KEEP = { age: 7 * 24 * 3600, count: 10_000 };

export function openDispatch(options: DispatchOptions): Dispatch {
  const queue = new Queue(options.name, { connection: options.redis, prefix: options.prefix });
  const clock = options.now ?? Date.now;
  let worker: Worker | undefined;
  let concurrency: number | undefined;
  const load = async (id: string): Promise<Job> => {
    const job = await Job.fromId(queue, id);
    if (!job) throw new Error(`BullMQ has no job ${id}`);
    return job;
  };
  const workerFor = (leaseMs: number): Worker => {
    worker ??= startWorker(options, leaseMs);
    return worker;
  };
  return {
    keyBase: queue.toKey(''),
    async add(id, request) {
      await queue.add('fix', request, { jobId: id, removeOnComplete: KEEP, removeOnFail: KEEP });
    },
    async next(token, leaseMs, maxRunning) {
      if (concurrency !== maxRunning) {
        await queue.setGlobalConcurrency(maxRunning);
        concurrency = maxRunning;
      }
      const w = workerFor(leaseMs);
      const job = await w.getNextJob(token, { block: false });
      if (!job?.id) return null;
      if (w.opts.lockDuration !== leaseMs) await job.extendLock(token, leaseMs);
      return job.id;
    },
    extendLock: async (id, token, leaseMs) => (await new Job(queue, 'fix', {}, {}, id).extendLock(token, leaseMs)) === 1,
    // BullMQ's delayed set keeps the host's real time: a time on greenfix's clock (an injected one
    // too) becomes the same distance from now, so BullMQ never hands a job out long before it is due.
    delay: async (id, token, at) => (await load(id)).moveToDelayed(Date.now() + Math.max(0, at - clock()), token),
    // Each awaits BullMQ's script: `void (await load(id)).moveTo…()` would drop the promise, so the
    // caller went on before BullMQ had moved the job, and a failure became an unhandled rejection.
    async handBack(id, token) {
      await (await load(id)).moveToWait(token);
    },
    async complete(id, token, result) {
      await (await load(id)).moveToCompleted(result ?? null, token, false);
    },
    async fail(id, token, reason) {
      await (await load(id)).moveToFailed(new Error(reason), token, false);
    },
    async promote(id) {
      const job = await Job.fromId(queue, id);
      if (!job || !(await job.isDelayed())) return;
      // BullMQ may promote it itself in between (its clock says due too): then there is nothing to do.
      await job.promote().catch(async (error: unknown) => {
        if (await job.isDelayed()) throw error;
      });
    },
    async close() {
      await worker?.close();
      await queue.close();
    },
  };
}

/**
 * The worker only fetches (no processor, no lock renewal: greenfix's heartbeat extends the lock).
 * Its stalled checker stays on, so a job locked by a process that died before greenfix's record
 * knew of it still goes back to the wait list; it never fails a job (greenfix counts attempts).
 */
function startWorker(options: DispatchOptions, leaseMs: number): Worker {
  const worker = new Worker(options.name, null, {
    connection: options.workerConnection(),
    prefix: options.prefix,
    autorun: false,
    lockDuration: leaseMs,
    skipLockRenewal: true,
    stalledInterval: options.stalledIntervalMs,
    maxStalledCount: Number.MAX_SAFE_INTEGER,
  });
  worker.on('error', options.onError);
  worker.startStalledCheckTimer().catch(options.onError);
  return worker;
}

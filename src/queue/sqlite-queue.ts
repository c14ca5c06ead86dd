import { randomUUID } from 'node:crypto';
import { subjectKey, type JobRequest } from '../triggers/types.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { createAnsweredDeliveries } from './answered-deliveries.js';
import { groupCommit } from './group-commit.js';
import { rowToJob, type JobRow } from './job-row.js';
import { createClaim, createLeaseOps, type SqliteContext } from './sqlite-lease.js';
import { createPullRequestOps } from './sqlite-pull-requests.js';
import { createReserve } from './sqlite-reserve.js';
import { openQueueDatabase } from './sqlite-schema.js';
import { createAuthorizeOps } from './sqlite-authorize.js';
import { createCancelSubject } from './sqlite-cancel.js';
import { createUnsyncedCommit, createWalSync, type SyncedFile } from './wal-sync.js';
import type { CountedState, EnqueueOptions, EnqueueResult, Job, JobQueue, JobState } from './types.js';

export interface SqliteQueueOptions {
  /** Database file (GREENFIX_DB), created 0600 with its directory; `:memory:` for a private throwaway queue. */
  path: string;
  /** Clock in epoch ms; injected by tests to expire leases and pass backoffs without waiting. */
  now?: () => number;
  backoff?: BackoffOptions;
  /** Opens the write-ahead log to sync it after an enqueue's commit (wal-sync.ts); tests hold or fail its syncs. Default: fdatasync. */
  openLog?: (file: string) => Promise<SyncedFile>;
  /** Told when a sync of the log fails (what was answered may not survive a power cut); default: nobody. */
  onSyncError?: (error: unknown) => void;
}

/**
 * The embedded JobQueue: one SQLite file shared by every process that opens it. Calls are
 * synchronous underneath (better-sqlite3) and short; the interface is async for the BullMQ queue's sake.
 * Throws QueueOpenError when the file cannot be used.
 */
export function openSqliteQueue(options: SqliteQueueOptions): JobQueue {
  const db = openQueueDatabase(options.path);
  const ctx: SqliteContext = { db, now: options.now ?? Date.now, backoff: options.backoff ?? DEFAULT_BACKOFF };
  // In WAL mode the webhook's answer waits for the commit, not for the disk: the receiver's thread
  // commits unsynced, the log's fsync starts on the thread pool, and the answer goes out. A process
  // crash loses nothing; what a power cut takes, GitHub's delivery log gives back (`answered`).
  // Without WAL (in memory, or a filesystem where SQLite could not use it) the commit syncs itself.
  const enqueueMany = createEnqueueMany(ctx);
  const unsynced = createUnsyncedCommit(db);
  const log = db.pragma('journal_mode', { simple: true }) === 'wal' ? createWalSync({ path: options.path, ...(options.openLog ? { openFile: options.openLog } : {}) }) : null;
  const syncSoon = () => void log?.sync().catch((error: unknown) => options.onSyncError?.(error));
  const enqueue = log ? groupCommit((items: Parameters<typeof enqueueMany>[0]) => unsynced(() => enqueueMany(items)), { afterCommit: syncSoon }) : groupCommit(enqueueMany);
  const answered = log ? createAnsweredDeliveries({ db, now: ctx.now, unsynced, afterCommit: syncSoon }) : undefined;
  const claim = createClaim(ctx);
  const lease = createLeaseOps(ctx);
  const read = createReadOps(ctx);
  const reserve = createReserve(ctx);
  const cancelSubject = createCancelSubject(ctx);
  const cancel = db.transaction(cancelSubject);
  const abandon = createAbandon(ctx);
  const prune = createPrune(ctx);
  const pulls = createPullRequestOps(ctx);
  const authorizing = createAuthorizeOps(ctx);
  // async so a thrown error (LeaseLostError, CorruptJobError) arrives as a rejection, like the Redis queue's.
  return {
    enqueue: (request, enqueueOptions) => enqueue([request, enqueueOptions] as const),
    claim: async (claimOptions) => claim(claimOptions),
    heartbeat: async (l, leaseMs) => lease.heartbeat(l, leaseMs),
    complete: async (l, result, spendUsd) => lease.complete(l, result, spendUsd),
    fail: async (l, failOptions) => lease.fail(l, failOptions),
    release: async (l) => lease.release(l),
    defer: async (l, deferOptions) => lease.defer(l, deferOptions),
    markCancelled: async (l, spendUsd) => lease.markCancelled(l, spendUsd),
    reserve: async (l, reserveOptions) => reserve.reserve(l, reserveOptions),
    spentByInstallation: async (installationKey, since) => reserve.spentByInstallation(installationKey, since),
    spent: async (repoKey, since) => lease.spent(repoKey, since),
    authorize: (id, allowed) => authorizing.authorize(id, allowed),
    awaitingAuthorization: async (before, limit) => authorizing.awaiting(before, limit),
    cancel: async (subject, reason) => cancel.immediate(subject, reason),
    get: async (id) => read.get(id),
    listBySubject: async (subject) => read.listBySubject(subject),
    noteOnce: async (key) => read.noteOnce(key),
    abandon: async (workerId) => abandon(workerId),
    prune: async (before, limit) => prune(before, limit),
    counts: async () => read.counts(),
    recordPullRequest: async (record) => pulls.recordPullRequest(record),
    recordMerge: async (repoKey, number, at) => pulls.recordMerge(repoKey, number, at),
    pullRequestsOpenedSince: async (repoKey, since) => pulls.pullRequestsOpenedSince(repoKey, since),
    stats: async (since) => pulls.stats(since),
    ...(answered ? { answered } : {}),
    close: async () => {
      await log?.close();
      if (db.open) db.close();
    },
  };
}

const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * One enqueue, as a transaction (a savepoint inside `createEnqueueMany`'s): look up the delivery id
 * and dedupe key, supersede the subject's active jobs, insert. The UNIQUE columns are the last
 * line of defence; the lookup is what turns a redelivery into `created: false` instead of an error.
 */
function createEnqueueOne(ctx: SqliteContext) {
  const { db } = ctx;
  const cancelSubject = createCancelSubject(ctx);
  const known = db.prepare<{ deliveryId: string; dedupeKey: string | null }, JobRow>(
    'SELECT * FROM jobs WHERE delivery_id = @deliveryId OR dedupe_key = @dedupeKey ORDER BY seq LIMIT 1',
  );
  const insert = db.prepare<Record<string, string | number | null>, JobRow>(
    `INSERT INTO jobs (id, delivery_id, dedupe_key, subject, repo_key, installation_key, request, state, attempts, max_attempts, run_after, created_at, updated_at, authorize)
     VALUES (@id, @deliveryId, @dedupeKey, @subject, @repoKey, @installationKey, @request, @state, 0, @maxAttempts, @now, @now, @now, @authorize)
     RETURNING *`,
  );
  const enqueue = db.transaction((request: JobRequest, options: EnqueueOptions): EnqueueResult => {
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
    const dedupeKey = options.dedupeKey ?? null;
    const existing = known.get({ deliveryId: options.deliveryId, dedupeKey });
    if (existing) return { job: rowToJob(existing), created: false, superseded: [] };
    const id = randomUUID();
    const subject = subjectKey(request.repo, request.number);
    // A job still to be authorised supersedes nothing: `authorize` does that once it lets it in.
    const superseded = options.authorize ? [] : cancelSubject(subject, `superseded by job ${id}`).map((job) => job.id);
    const row = insert.get({
      id,
      deliveryId: options.deliveryId,
      dedupeKey,
      subject,
      repoKey: String(request.repo.id),
      installationKey: String(request.installationId),
      request: JSON.stringify(request),
      maxAttempts,
      now: ctx.now(),
      state: options.authorize ? 'authorizing' : 'queued',
      authorize: options.authorize ?? null,
    });
    return { job: rowToJob(row!), created: true, superseded };
  });
  return enqueue;
}

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Many enqueues in one IMMEDIATE transaction (one fsync): each runs in its own savepoint (a nested
 * better-sqlite3 transaction), so one that fails rolls back alone and the others commit.
 */
function createEnqueueMany(ctx: SqliteContext): (items: ReadonlyArray<readonly [JobRequest, EnqueueOptions]>) => Array<Outcome<EnqueueResult>> {
  const one = createEnqueueOne(ctx);
  const many = ctx.db.transaction((items: ReadonlyArray<readonly [JobRequest, EnqueueOptions]>) =>
    items.map(([request, options]): Outcome<EnqueueResult> => {
      try {
        return { ok: true, value: one(request, options) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  return (items) => many.immediate(items);
}

interface ReadOps {
  get(id: string): Job | null;
  listBySubject(subject: string): Job[];
  counts(): Record<CountedState, number>;
  noteOnce(key: string): boolean;
}

/** Reads, plus the "say it once" notes (a table of its own: they outlive the jobs they were about). */
function createReadOps(ctx: SqliteContext): ReadOps {
  const { db } = ctx;
  const byId = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?');
  const bySubject = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE subject = ? ORDER BY seq DESC');
  const byState = db.prepare<[], { state: JobState; n: number }>('SELECT state, count(*) AS n FROM jobs GROUP BY state');
  const note = db.prepare<[string, number]>('INSERT OR IGNORE INTO notes (key, created_at) VALUES (?, ?)');
  return {
    get(id) {
      const row = byId.get(id);
      return row ? rowToJob(row) : null;
    },
    listBySubject: (subject) => bySubject.all(subject).map(rowToJob),
    counts() {
      const counts: Record<CountedState, number> = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
      for (const { state, n } of byState.all()) counts[state === 'authorizing' ? 'queued' : state] += n;
      return counts;
    },
    noteOnce: (key) => note.run(key, ctx.now()).changes === 1,
  };
}

/**
 * Expires at once the leases a worker held: called by that worker's next incarnation at startup
 * (it knows the previous process is gone), so its jobs resume now instead of after the lease
 * runs out. The jobs are then claimed like any stalled job (the lost attempt counts).
 */
function createAbandon(ctx: SqliteContext): (workerId: string) => number {
  const expire = ctx.db.prepare<{ owner: string; past: number }>(
    `UPDATE jobs SET lease_until = @past WHERE state = 'running' AND lease_owner = @owner`,
  );
  return (workerId) => expire.run({ owner: workerId, past: ctx.now() - 1 }).changes;
}

/**
 * prune(before, limit): the oldest finished jobs first, in one transaction. Deleting the row
 * frees its delivery id and dedupe key (both are columns of it); notes go by their own age, and
 * so do answered deliveries, `limit` of them per call.
 */
function createPrune(ctx: SqliteContext): (before: number, limit: number) => number {
  const { db } = ctx;
  const jobs = db.prepare<[number, number]>(
    `DELETE FROM jobs WHERE seq IN (
       SELECT seq FROM jobs WHERE state IN ('succeeded', 'failed', 'cancelled') AND updated_at < ? ORDER BY updated_at LIMIT ?)`,
  );
  const notes = db.prepare<[number]>('DELETE FROM notes WHERE created_at < ?');
  const answered = db.prepare<[number, number]>('DELETE FROM answered WHERE delivery_id IN (SELECT delivery_id FROM answered WHERE at < ? ORDER BY at LIMIT ?)');
  return db.transaction((before: number, limit: number) => {
    notes.run(before);
    answered.run(before, limit);
    return jobs.run(before, limit).changes;
  });
}

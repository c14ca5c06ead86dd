import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { openQueueDatabase } from './sqlite-open.js';
import { createClaim } from './sqlite-claim.js';
import type { SqliteContext } from './sqlite-context.js';
import { createEnqueueMany } from './sqlite-enqueue.js';
import { groupCommit } from './group-commit.js';
import { createLeaseOps } from './sqlite-lease.js';
import { createReadOps } from './sqlite-read.js';
import { createCancelSubject } from './sqlite-cancel.js';
import { createAbandon } from './sqlite-abandon.js';
import { createPrune } from './sqlite-prune.js';
import type { JobQueue } from './types.js';

export interface SqliteQueueOptions {
  /** Database file (GREENFIX_DB), created 0600 with its directory; `:memory:` for a private throwaway queue. */
  path: string;
  /** Clock in epoch ms; injected by tests to expire leases and pass backoffs without waiting. */
  now?: () => number;
  backoff?: BackoffOptions;
}

/**
 * The embedded JobQueue: one SQLite file shared by every process that opens it. Calls are
 * synchronous underneath (better-sqlite3) and short; the interface is async for the BullMQ queue's sake.
 * Throws QueueOpenError when the file cannot be used.
 */
export function openSqliteQueue(options: SqliteQueueOptions): JobQueue {
  const db = openQueueDatabase(options.path);
  const ctx: SqliteContext = { db, now: options.now ?? Date.now, backoff: options.backoff ?? DEFAULT_BACKOFF };
  const enqueue = groupCommit(createEnqueueMany(ctx));
  const claim = createClaim(ctx);
  const lease = createLeaseOps(ctx);
  const read = createReadOps(ctx);
  const cancelSubject = createCancelSubject(ctx);
  const cancel = db.transaction(cancelSubject);
  const abandon = createAbandon(ctx);
  const prune = createPrune(ctx);
  // async so a thrown error (LeaseLostError, CorruptJobError) arrives as a rejection, like the Redis queue's.
  return {
    enqueue: (request, enqueueOptions) => enqueue([request, enqueueOptions] as const),
    claim: async (claimOptions) => claim(claimOptions),
    heartbeat: async (l, leaseMs) => lease.heartbeat(l, leaseMs),
    complete: async (l, result, spendUsd) => lease.complete(l, result, spendUsd),
    fail: async (l, failOptions) => lease.fail(l, failOptions),
    release: async (l) => lease.release(l),
    markCancelled: async (l, spendUsd) => lease.markCancelled(l, spendUsd),
    spent: async (repoKey, since) => lease.spent(repoKey, since),
    cancel: async (subject, reason) => cancel.immediate(subject, reason),
    get: async (id) => read.get(id),
    listBySubject: async (subject) => read.listBySubject(subject),
    noteOnce: async (key) => read.noteOnce(key),
    abandon: async (workerId) => abandon(workerId),
    prune: async (before, limit) => prune(before, limit),
    counts: async () => read.counts(),
    close: async () => {
      if (db.open) db.close();
    },
  };
}

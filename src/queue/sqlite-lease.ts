import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { CorruptJobError } from './errors.js';
import { resultToColumn, rowToJob, type JobRow } from './job-row.js';
import { checkRunAfter, LeaseLostError, type ClaimOptions, type Claimed, type DeferOptions, type FailOptions, type HeartbeatResult, type Lease } from './types.js';

/* The SQLite queue's leases (sqlite-queue.ts is the queue): claim, then what the holder does with a running job. */

/** What every SQLite queue operation needs: the open database, the clock, the retry policy. */
export interface SqliteContext {
  db: Database.Database;
  now: () => number;
  backoff: BackoffOptions;
}

/** Columns that drop a lease, and the reservation that goes with it: set when a job leaves 'running'. */
export const CLEAR_LEASE = 'lease_token = NULL, lease_owner = NULL, lease_until = NULL, reserved_usd = NULL';

/** A job whose lease is live: someone is working on it now. */
const LIVE = `state = 'running' AND lease_until > @now`;
/** A job left 'running' by a worker that stopped heartbeating (crashed, killed, stalled). */
const STALLED = `state = 'running' AND lease_until <= @now`;

/**
 * Claim in one IMMEDIATE transaction, so two processes never take the same job: settle stalled
 * jobs that may not run again, check the global limit, then lease the oldest runnable job whose
 * repository has nothing live. A stalled job is claimed again like a queued one (attempts + 1).
 */
export function createClaim(ctx: SqliteContext): (options: ClaimOptions) => Claimed | null {
  const { db } = ctx;
  const endCancelled = db.prepare<{ now: number }>(
    `UPDATE jobs SET state = 'cancelled', updated_at = @now, ${CLEAR_LEASE} WHERE ${STALLED} AND cancel_reason IS NOT NULL`,
  );
  const endExhausted = db.prepare<{ now: number }>(
    `UPDATE jobs SET state = 'failed', updated_at = @now, ${CLEAR_LEASE},
       error = 'the lease expired during attempt ' || attempts || ' of ' || max_attempts || ' (the worker stopped or stalled)'
     WHERE ${STALLED} AND attempts >= max_attempts`,
  );
  const live = db.prepare<{ now: number }, { n: number }>(`SELECT count(*) AS n FROM jobs WHERE ${LIVE}`);
  // Two index walks in seq order (queued, stalled) instead of one OR: each stops at its first hit.
  const firstRunnable = (where: string) =>
    db.prepare<{ now: number }, { seq: number }>(
      `SELECT seq FROM jobs AS j WHERE ${where}
         AND NOT EXISTS (SELECT 1 FROM jobs AS busy WHERE busy.repo_key = j.repo_key
                         AND busy.state = 'running' AND busy.lease_until > @now)
       ORDER BY seq LIMIT 1`,
    );
  const nextQueued = firstRunnable(`state = 'queued' AND run_after <= @now`);
  const nextStalled = firstRunnable(STALLED);
  const take = db.prepare<{ seq: number; token: string; owner: string; until: number; now: number }, JobRow>(
    `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_token = @token, lease_owner = @owner,
       lease_until = @until, reserved_usd = NULL, updated_at = @now
     WHERE seq = @seq RETURNING *`,
  );
  const setFailed = db.prepare<{ seq: number; error: string; now: number }>(
    `UPDATE jobs SET state = 'failed', error = @error, updated_at = @now, ${CLEAR_LEASE} WHERE seq = @seq`,
  );
  const claim = db.transaction((options: ClaimOptions): Claimed | null => {
    const now = ctx.now();
    endCancelled.run({ now });
    endExhausted.run({ now });
    if (live.get({ now })!.n >= options.maxRunning) return null;
    for (;;) {
      const found = [nextQueued.get({ now }), nextStalled.get({ now })].filter((r) => r !== undefined).sort((a, b) => a.seq - b.seq)[0];
      if (!found) return null;
      const token = randomUUID();
      const row = take.get({ seq: found.seq, token, owner: options.workerId, until: now + options.leaseMs, now })!;
      try {
        return { job: rowToJob(row), lease: { jobId: row.id, token } };
      } catch (error) {
        // A damaged row would be the oldest forever and block every claim: fail it, take the next.
        if (!(error instanceof CorruptJobError)) throw error;
        setFailed.run({ seq: found.seq, error: error.message, now });
      }
    }
  });
  return (options) => claim.immediate(options);
}

/** Only the current holder may touch a running job: the token is checked in every WHERE. */
export const HELD = `id = @jobId AND lease_token = @token AND state = 'running'`;

export interface LeaseOps {
  heartbeat(lease: Lease, leaseMs: number): HeartbeatResult;
  complete(lease: Lease, result: unknown, spendUsd?: number): void;
  fail(lease: Lease, options: FailOptions): 'queued' | 'failed';
  release(lease: Lease): void;
  defer(lease: Lease, options: DeferOptions): 'queued' | 'cancelled';
  markCancelled(lease: Lease, spendUsd?: number): void;
  spent(repoKey: string, since: number): number;
}

/**
 * What the lease holder does with a running job. A heartbeat renews the lease even if it expired,
 * as long as nobody claimed the job since (the token still matches): a slow heartbeat is not a
 * lost job.
 */
export function createLeaseOps(ctx: SqliteContext): LeaseOps {
  const { db } = ctx;
  const renew = db.prepare<Lease & { until: number; now: number }, { cancel_reason: string | null }>(
    `UPDATE jobs SET lease_until = @until, updated_at = @now WHERE ${HELD} RETURNING cancel_reason`,
  );
  const reasonOf = db.prepare<[string], { cancel_reason: string | null }>('SELECT cancel_reason FROM jobs WHERE id = ?');
  const complete = db.prepare<Lease & { result: string | null; now: number }>(
    `UPDATE jobs SET state = 'succeeded', result = @result, updated_at = @now, ${CLEAR_LEASE} WHERE ${HELD}`,
  );
  const held = db.prepare<Lease, JobRow>(`SELECT * FROM jobs WHERE ${HELD}`);
  const settleFailure = db.prepare<Lease & { state: string; error: string; runAfter: number; now: number }>(
    `UPDATE jobs SET state = @state, error = @error, run_after = @runAfter, updated_at = @now, ${CLEAR_LEASE} WHERE ${HELD}`,
  );
  // Released: the attempt does not count. A job flagged for cancellation is not handed out again.
  const release = db.prepare<Lease & { now: number }>(
    `UPDATE jobs SET state = CASE WHEN cancel_reason IS NULL THEN 'queued' ELSE 'cancelled' END,
       attempts = max(attempts - 1, 0), updated_at = @now, ${CLEAR_LEASE} WHERE ${HELD}`,
  );
  // Deferred: like a release (the attempt does not count), back at `runAfter`, the reason kept in `error`.
  const defer = db.prepare<Lease & { runAfter: number; reason: string; now: number }, { state: 'queued' | 'cancelled' }>(
    `UPDATE jobs SET state = CASE WHEN cancel_reason IS NULL THEN 'queued' ELSE 'cancelled' END,
       attempts = max(attempts - 1, 0), run_after = @runAfter, error = @reason, updated_at = @now, ${CLEAR_LEASE}
     WHERE ${HELD} RETURNING state`,
  );
  const cancelled = db.prepare<Lease & { now: number }>(
    `UPDATE jobs SET state = 'cancelled', cancel_reason = COALESCE(cancel_reason, 'cancelled by the worker'),
       updated_at = @now, ${CLEAR_LEASE} WHERE ${HELD}`,
  );
  const mustHold = (lease: Lease, changes: number) => {
    if (changes === 0) throw new LeaseLostError(lease.jobId);
  };
  // Only while the lease is held, inside the transaction that ends it. The job's total never goes down:
  // recording the same total again (a retried call) changes nothing.
  const recordSpend = db.prepare<Lease & { usd: number; now: number }>(
    `INSERT INTO spend (job_id, repo_key, installation_key, usd, at) SELECT id, repo_key, installation_key, @usd, @now FROM jobs WHERE ${HELD}
       ON CONFLICT (job_id) DO UPDATE SET usd = excluded.usd, at = excluded.at WHERE excluded.usd > spend.usd`,
  );
  const spentSince = db.prepare<{ repoKey: string; since: number }, { usd: number | null }>(
    'SELECT SUM(usd) AS usd FROM spend WHERE repo_key = @repoKey AND at >= @since',
  );
  const withSpend = (lease: Lease, spendUsd: number | undefined, end: () => number) =>
    db.transaction(() => {
      if (spendUsd !== undefined && spendUsd > 0) recordSpend.run({ ...pick(lease), usd: spendUsd, now: ctx.now() });
      mustHold(lease, end());
    }).immediate();
  const fail = db.transaction((lease: Lease, options: FailOptions): 'queued' | 'failed' => {
    const row = held.get(pick(lease));
    if (!row) throw new LeaseLostError(lease.jobId);
    const now = ctx.now();
    const retry = options.retryable && row.attempts < row.max_attempts && row.cancel_reason === null;
    const runAfter = retry ? now + backoffDelay(row.attempts, ctx.backoff) : row.run_after;
    const state = retry ? 'queued' : 'failed';
    if (options.spendUsd !== undefined && options.spendUsd > 0) recordSpend.run({ ...pick(lease), usd: options.spendUsd, now });
    settleFailure.run({ ...pick(lease), state, error: options.message, runAfter, now });
    return state;
  });
  return {
    heartbeat(lease, leaseMs) {
      const now = ctx.now();
      const renewed = renew.get({ ...pick(lease), until: now + leaseMs, now });
      if (renewed) return { held: true, cancelReason: renewed.cancel_reason };
      return { held: false, cancelReason: reasonOf.get(lease.jobId)?.cancel_reason ?? null };
    },
    complete: (lease, result, spendUsd) => withSpend(lease, spendUsd, () => complete.run({ ...pick(lease), result: resultToColumn(result), now: ctx.now() }).changes),
    fail: (lease, options) => fail.immediate(lease, options),
    release: (lease) => mustHold(lease, release.run({ ...pick(lease), now: ctx.now() }).changes),
    defer: (lease, options) => {
      checkRunAfter(options.runAfter);
      let state: 'queued' | 'cancelled' = 'queued';
      withSpend(lease, options.spendUsd, () => {
        const row = defer.get({ ...pick(lease), runAfter: options.runAfter, reason: options.reason, now: ctx.now() });
        if (row) state = row.state;
        return row ? 1 : 0;
      });
      return state;
    },
    markCancelled: (lease, spendUsd) => withSpend(lease, spendUsd, () => cancelled.run({ ...pick(lease), now: ctx.now() }).changes),
    spent: (repoKey, since) => spentSince.get({ repoKey, since })?.usd ?? 0,
  };
}

/** Named parameters must match exactly: pass only the lease's own fields. */
export const pick = (lease: Lease): Lease => ({ jobId: lease.jobId, token: lease.token });

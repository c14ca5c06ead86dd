import { backoffDelay } from './backoff.js';
import { resultToColumn, type JobRow } from './job-row.js';
import { CLEAR_LEASE, type SqliteContext } from './sqlite-context.js';
import { LeaseLostError, type FailOptions, type HeartbeatResult, type Lease } from './types.js';

/** Only the current holder may touch a running job: the token is checked in every WHERE. */
const HELD = `id = @jobId AND lease_token = @token AND state = 'running'`;

export interface LeaseOps {
  heartbeat(lease: Lease, leaseMs: number): HeartbeatResult;
  complete(lease: Lease, result: unknown, spendUsd?: number): void;
  fail(lease: Lease, options: FailOptions): 'queued' | 'failed';
  release(lease: Lease): void;
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
    `INSERT INTO spend (job_id, repo_key, usd, at) SELECT id, repo_key, @usd, @now FROM jobs WHERE ${HELD}
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
    markCancelled: (lease, spendUsd) => withSpend(lease, spendUsd, () => cancelled.run({ ...pick(lease), now: ctx.now() }).changes),
    spent: (repoKey, since) => spentSince.get({ repoKey, since })?.usd ?? 0,
  };
}

/** Named parameters must match exactly: pass only the lease's own fields. */
const pick = (lease: Lease): Lease => ({ jobId: lease.jobId, token: lease.token });

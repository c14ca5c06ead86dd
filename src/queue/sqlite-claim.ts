import { randomUUID } from 'node:crypto';
import { CorruptJobError } from './errors.js';
import { rowToJob, type JobRow } from './job-row.js';
import { CLEAR_LEASE, type SqliteContext } from './sqlite-context.js';
import type { ClaimOptions, Claimed } from './types.js';

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
       lease_until = @until, updated_at = @now
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

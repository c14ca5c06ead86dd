import { rowToJob, type JobRow } from './job-row.js';
import { CLEAR_LEASE, type SqliteContext } from './sqlite-lease.js';
import type { Job } from './types.js';

/**
 * Cancels what is active for a subject; call inside a write transaction. Queued (and authorizing) jobs, and running
 * ones whose lease expired (nobody is working on them), end 'cancelled' at once. A running job with
 * a live lease is only flagged: its worker learns it from the next heartbeat and stops it. The first
 * reason given is kept. `below`: only jobs enqueued before that seq.
 */
export function createCancelSubject(ctx: SqliteContext): (subject: string, reason: string, below?: number) => Job[] {
  type Params = { subject: string; reason: string; now: number; below: number };
  const end = ctx.db.prepare<Params, JobRow>(
    `UPDATE jobs SET state = 'cancelled', cancel_reason = COALESCE(cancel_reason, @reason), updated_at = @now, ${CLEAR_LEASE}
     WHERE subject = @subject AND seq < @below AND (state IN ('queued', 'authorizing') OR (state = 'running' AND lease_until <= @now))
     RETURNING *`,
  );
  const flag = ctx.db.prepare<Params, JobRow>(
    `UPDATE jobs SET cancel_reason = COALESCE(cancel_reason, @reason), updated_at = @now
     WHERE subject = @subject AND seq < @below AND state = 'running' AND lease_until > @now
     RETURNING *`,
  );
  return (subject, reason, below = Number.MAX_SAFE_INTEGER) => {
    const params = { subject, reason, now: ctx.now(), below };
    const rows = [...end.all(params), ...flag.all(params)];
    return rows.sort((a, b) => a.seq - b.seq).map(rowToJob);
  };
}

import { rowToJob, type JobRow } from './job-row.js';
import { CLEAR_LEASE, type SqliteContext } from './sqlite-context.js';
import type { Job } from './types.js';

/**
 * Cancels what is active for a subject; call inside a write transaction. Queued jobs, and running
 * ones whose lease expired (nobody is working on them), end 'cancelled' at once. A running job with
 * a live lease is only flagged: its worker learns it from the next heartbeat and stops it. The first
 * reason given is kept.
 */
export function createCancelSubject(ctx: SqliteContext): (subject: string, reason: string) => Job[] {
  const end = ctx.db.prepare<{ subject: string; reason: string; now: number }, JobRow>(
    `UPDATE jobs SET state = 'cancelled', cancel_reason = COALESCE(cancel_reason, @reason), updated_at = @now, ${CLEAR_LEASE}
     WHERE subject = @subject AND (state = 'queued' OR (state = 'running' AND lease_until <= @now))
     RETURNING *`,
  );
  const flag = ctx.db.prepare<{ subject: string; reason: string; now: number }, JobRow>(
    `UPDATE jobs SET cancel_reason = COALESCE(cancel_reason, @reason), updated_at = @now
     WHERE subject = @subject AND state = 'running' AND lease_until > @now
     RETURNING *`,
  );
  return (subject, reason) => {
    const params = { subject, reason, now: ctx.now() };
    const rows = [...end.all(params), ...flag.all(params)];
    return rows.sort((a, b) => a.seq - b.seq).map(rowToJob);
  };
}

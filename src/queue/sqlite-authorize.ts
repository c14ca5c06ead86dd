import { answeredRecorder } from './answered-deliveries.js';
import { groupCommit } from './group-commit.js';
import { rowToJob, type JobRow } from './job-row.js';
import { createCancelSubject } from './sqlite-cancel.js';
import { createUnsyncedCommit } from './wal-sync.js';
import type { SqliteContext } from './sqlite-lease.js';
import type { AuthorizeResult, Job } from './types.js';

export interface AuthorizeOps {
  authorize(id: string, allowed: boolean): Promise<AuthorizeResult>;
  awaiting(before: number, limit: number): Job[];
}

/**
 * The SQLite queue's way out of 'authorizing' (JobQueue.authorize), each decision a savepoint of
 * one IMMEDIATE transaction per event-loop turn (group-commit.ts: a burst of webhooks pays a few
 * fsyncs for its decisions, as for its enqueues):
 * let the job in (superseding the older active jobs of its subject), or remove it as if it had
 * never been enqueued, its delivery kept as one the receiver answered (answered-deliveries.ts). A
 * newer job of the subject never waits behind it: enqueueing or letting in a job cancels the
 * older authorizing ones, so the newest request wins.
 */
export function createAuthorizeOps(ctx: SqliteContext): AuthorizeOps {
  const { db } = ctx;
  const unsynced = createUnsyncedCommit(db);
  const cancelSubject = createCancelSubject(ctx);
  const byId = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?');
  const letIn = db.prepare<{ seq: number; now: number }, JobRow>(`UPDATE jobs SET state = 'queued', updated_at = @now WHERE seq = @seq RETURNING *`);
  const remove = db.prepare<[number]>('DELETE FROM jobs WHERE seq = ?');
  const answered = answeredRecorder(db);
  const awaiting = db.prepare<[number, number], JobRow>(`SELECT * FROM jobs WHERE state = 'authorizing' AND created_at < ? ORDER BY created_at, seq LIMIT ?`);
  const one = db.transaction((id: string, allowed: boolean): AuthorizeResult => {
    const row = byId.get(id);
    if (!row || row.state !== 'authorizing') return { job: row ? rowToJob(row) : null, changed: false, superseded: [] };
    if (!allowed) {
      remove.run(row.seq);
      answered(row.delivery_id, ctx.now());
      return { job: rowToJob(row), changed: true, superseded: [] };
    }
    const superseded = cancelSubject(row.subject, `superseded by job ${row.id}`, row.seq).map((job) => job.id);
    return { job: rowToJob(letIn.get({ seq: row.seq, now: ctx.now() })!), changed: true, superseded };
  });
  const many = db.transaction((items: ReadonlyArray<readonly [string, boolean]>) =>
    items.map(([id, allowed]) => {
      try {
        return { ok: true as const, value: one(id, allowed) };
      } catch (error) {
        return { ok: false as const, error };
      }
    }),
  );
  // A decision lost in a power cut leaves its job 'authorizing', and the sweep decides it again
  // (app/authorize-waiting.ts): no fsync of its own (WAL, synchronous=NORMAL for this commit only;
  // the next synced commit syncs it with its own).
  const authorize = groupCommit<readonly [string, boolean], AuthorizeResult>((items) => unsynced(() => many.immediate(items)));
  return {
    authorize: (id, allowed) => authorize([id, allowed] as const),
    awaiting: (before, limit) => awaiting.all(before, limit).map(rowToJob),
  };
}

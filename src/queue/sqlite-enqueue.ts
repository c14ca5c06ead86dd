import { randomUUID } from 'node:crypto';
import { subjectKey, type JobRequest } from '../triggers/types.js';
import { rowToJob, type JobRow } from './job-row.js';
import { createCancelSubject } from './sqlite-cancel.js';
import type { SqliteContext } from './sqlite-context.js';
import type { EnqueueOptions, EnqueueResult } from './types.js';

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
    `INSERT INTO jobs (id, delivery_id, dedupe_key, subject, repo_key, request, state, attempts, max_attempts, run_after, created_at, updated_at)
     VALUES (@id, @deliveryId, @dedupeKey, @subject, @repoKey, @request, 'queued', 0, @maxAttempts, @now, @now, @now)
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
    const superseded = cancelSubject(subject, `superseded by job ${id}`).map((job) => job.id);
    const row = insert.get({
      id,
      deliveryId: options.deliveryId,
      dedupeKey,
      subject,
      repoKey: String(request.repo.id),
      request: JSON.stringify(request),
      maxAttempts,
      now: ctx.now(),
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
export function createEnqueueMany(ctx: SqliteContext): (items: ReadonlyArray<readonly [JobRequest, EnqueueOptions]>) => Array<Outcome<EnqueueResult>> {
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

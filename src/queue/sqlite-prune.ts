import type { SqliteContext } from './sqlite-context.js';

/**
 * prune(before, limit): the oldest finished jobs first, in one transaction. Deleting the row
 * frees its delivery id and dedupe key (both are columns of it); notes go by their own age.
 */
export function createPrune(ctx: SqliteContext): (before: number, limit: number) => number {
  const { db } = ctx;
  const jobs = db.prepare<[number, number]>(
    `DELETE FROM jobs WHERE seq IN (
       SELECT seq FROM jobs WHERE state IN ('succeeded', 'failed', 'cancelled') AND updated_at < ? ORDER BY updated_at LIMIT ?)`,
  );
  const notes = db.prepare<[number]>('DELETE FROM notes WHERE created_at < ?');
  return db.transaction((before: number, limit: number) => {
    notes.run(before);
    return jobs.run(before, limit).changes;
  });
}

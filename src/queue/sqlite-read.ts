import { rowToJob, type JobRow } from './job-row.js';
import type { SqliteContext } from './sqlite-context.js';
import type { Job, JobState } from './types.js';

export interface ReadOps {
  get(id: string): Job | null;
  listBySubject(subject: string): Job[];
  counts(): Record<JobState, number>;
  noteOnce(key: string): boolean;
}

/** Reads, plus the "say it once" notes (a table of its own: they outlive the jobs they were about). */
export function createReadOps(ctx: SqliteContext): ReadOps {
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
      const counts: Record<JobState, number> = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
      for (const { state, n } of byState.all()) counts[state] = n;
      return counts;
    },
    noteOnce: (key) => note.run(key, ctx.now()).changes === 1,
  };
}

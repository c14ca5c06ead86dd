import type Database from 'better-sqlite3';

/**
 * Schema migrations, applied in order and recorded in `PRAGMA user_version`. Append only: a
 * released migration is never edited, so every database converges to the same schema.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE jobs (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     delivery_id TEXT NOT NULL UNIQUE,
     dedupe_key TEXT UNIQUE,
     subject TEXT NOT NULL,
     repo_key TEXT NOT NULL,
     request TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
     attempts INTEGER NOT NULL,
     max_attempts INTEGER NOT NULL,
     run_after INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     cancel_reason TEXT,
     error TEXT,
     result TEXT,
     lease_token TEXT,
     lease_owner TEXT,
     lease_until INTEGER
   );
   CREATE INDEX jobs_by_state ON jobs (state, seq);
   CREATE INDEX jobs_by_subject ON jobs (subject, seq);
   CREATE INDEX jobs_running_by_repo ON jobs (repo_key, lease_until) WHERE state = 'running';
   CREATE TABLE notes (
     key TEXT PRIMARY KEY,
     created_at INTEGER NOT NULL
   );`,
  // Spend per job, the total of all its attempts so far (a resumed run's usage includes the earlier ones).
  `CREATE TABLE spend (
     job_id TEXT PRIMARY KEY,
     repo_key TEXT NOT NULL,
     usd REAL NOT NULL CHECK (usd >= 0),
     at INTEGER NOT NULL
   );
   CREATE INDEX spend_by_repo ON spend (repo_key, at);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the schema up to date; returns the version found, or throws if the file is from a newer greenfix. */
export function migrate(db: Database.Database): { from: number } {
  const apply = db.transaction(() => {
    const from = db.pragma('user_version', { simple: true }) as number;
    if (from > SCHEMA_VERSION) return { from };
    for (const sql of MIGRATIONS.slice(from)) db.exec(sql);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    return { from };
  });
  return apply.immediate();
}

import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { QueueOpenError } from './errors.js';

/**
 * Schema migrations, applied in order and recorded in `PRAGMA user_version`. Append only: a
 * released migration is never edited, so every database converges to the same schema.
 */
export const MIGRATIONS: readonly string[] = [
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
  // Caps over time: the installation of each job and spend row (installation caps sum across its
  // repositories), and the reservation a running job holds (JobQueue.reserve).
  `ALTER TABLE jobs ADD COLUMN installation_key TEXT;
   ALTER TABLE jobs ADD COLUMN reserved_usd REAL CHECK (reserved_usd >= 0);
   UPDATE jobs SET installation_key = CAST(json_extract(request, '$.installationId') AS TEXT) WHERE json_valid(request);
   ALTER TABLE spend ADD COLUMN installation_key TEXT;
   UPDATE spend SET installation_key = (SELECT installation_key FROM jobs WHERE jobs.id = spend.job_id);
   CREATE INDEX spend_by_installation ON spend (installation_key, at);`,
  // Pull requests greenfix opened, and their merges (PR rate limits, cost per merged PR).
  `CREATE TABLE pull_requests (
     repo_key TEXT NOT NULL,
     repo TEXT NOT NULL,
     number INTEGER NOT NULL CHECK (number > 0),
     job_id TEXT NOT NULL,
     opened_at INTEGER NOT NULL,
     merged_at INTEGER,
     PRIMARY KEY (repo_key, number)
   );
   CREATE INDEX pull_requests_by_opened ON pull_requests (repo_key, opened_at);
   CREATE INDEX pull_requests_by_merged ON pull_requests (merged_at) WHERE merged_at IS NOT NULL;
   CREATE INDEX jobs_by_repo ON jobs (repo_key, seq);`,
  // Authorisation after the webhook's answer: the 'authorizing' state (a CHECK cannot be altered
  // in SQLite, so the table is rebuilt, its AUTOINCREMENT counter carried over) and how a refused
  // sender is answered.
  `CREATE TABLE jobs_next (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     delivery_id TEXT NOT NULL UNIQUE,
     dedupe_key TEXT UNIQUE,
     subject TEXT NOT NULL,
     repo_key TEXT NOT NULL,
     request TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('authorizing', 'queued', 'running', 'succeeded', 'failed', 'cancelled')),
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
     lease_until INTEGER,
     installation_key TEXT,
     reserved_usd REAL CHECK (reserved_usd >= 0),
     authorize TEXT CHECK (authorize IN ('refusal', 'outsider', 'quiet'))
   );
   INSERT INTO jobs_next (seq, id, delivery_id, dedupe_key, subject, repo_key, request, state, attempts, max_attempts, run_after,
       created_at, updated_at, cancel_reason, error, result, lease_token, lease_owner, lease_until, installation_key, reserved_usd)
     SELECT seq, id, delivery_id, dedupe_key, subject, repo_key, request, state, attempts, max_attempts, run_after,
       created_at, updated_at, cancel_reason, error, result, lease_token, lease_owner, lease_until, installation_key, reserved_usd FROM jobs;
   UPDATE sqlite_sequence SET seq = (SELECT max(seq) FROM sqlite_sequence WHERE name IN ('jobs', 'jobs_next')) WHERE name = 'jobs_next';
   INSERT INTO sqlite_sequence (name, seq) SELECT 'jobs_next', seq FROM sqlite_sequence
     WHERE name = 'jobs' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'jobs_next');
   DROP TABLE jobs;
   ALTER TABLE jobs_next RENAME TO jobs;
   CREATE INDEX jobs_by_state ON jobs (state, seq);
   CREATE INDEX jobs_by_subject ON jobs (subject, seq);
   CREATE INDEX jobs_running_by_repo ON jobs (repo_key, lease_until) WHERE state = 'running';
   CREATE INDEX jobs_by_repo ON jobs (repo_key, seq);
   CREATE INDEX jobs_authorizing ON jobs (created_at) WHERE state = 'authorizing';`,
  // Deliveries answered without a job of their own (ignored, refused, cancelling, a duplicate by
  // dedupe key): with the jobs' delivery ids, everything the receiver answered, which GitHub's
  // delivery log is compared with after a power cut (app/recover-deliveries.ts). Recording starts
  // now: what an older greenfix answered before is not compared.
  `CREATE TABLE answered (
     delivery_id TEXT PRIMARY KEY,
     at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX answered_by_at ON answered (at);
   CREATE TABLE answered_since (at INTEGER NOT NULL);
   INSERT INTO answered_since (at) VALUES (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));`,
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

/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

/** SQLite result codes that mean "this file is not a usable database". */
const CORRUPT_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/**
 * Opens (creating if needed) the queue database: file mode 0600 (it holds issue text and job
 * results), WAL so readers never block the writer, a busy timeout so several processes can share
 * the file, synchronous=FULL so a job acknowledged to GitHub survives a power cut. Failures
 * become a QueueOpenError naming the path and the fix.
 */
export function openQueueDatabase(path: string): Database.Database {
  if (path !== ':memory:') createPrivateFile(path);
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const { from } = migrate(db);
    if (from > SCHEMA_VERSION) {
      throw new QueueOpenError('newer_schema', path, `schema version ${from} is newer than this greenfix knows (${SCHEMA_VERSION}); upgrade greenfix`);
    }
    return db;
  } catch (error) {
    db?.close();
    throw asOpenError(path, error);
  }
}

function createPrivateFile(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600); // an existing file made under a looser umask
  } catch (error) {
    throw new QueueOpenError('unwritable', path, `${errnoCode(error) ?? 'error'}: check that the directory exists and is writable by this user (GREENFIX_DB)`, { cause: error });
  }
}

function asOpenError(path: string, error: unknown): QueueOpenError {
  if (error instanceof QueueOpenError) return error;
  const code = errnoCode(error);
  if (code !== undefined && CORRUPT_CODES.has(code)) {
    return new QueueOpenError('corrupt', path, 'the file is not a SQLite database or is damaged; move it aside to start an empty queue', { cause: error });
  }
  return new QueueOpenError('unwritable', path, `${code ?? 'error'}: the database cannot be opened for writing (GREENFIX_DB)`, { cause: error });
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { QueueOpenError } from './errors.js';
import { SCHEMA_VERSION, migrate } from './sqlite-schema.js';

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

import type Database from 'better-sqlite3';
import type { BackoffOptions } from './backoff.js';

/** What every SQLite queue operation needs: the open database, the clock, the retry policy. */
export interface SqliteContext {
  db: Database.Database;
  now: () => number;
  backoff: BackoffOptions;
}

/** Columns that drop a lease: set when a job leaves 'running'. */
export const CLEAR_LEASE = 'lease_token = NULL, lease_owner = NULL, lease_until = NULL';

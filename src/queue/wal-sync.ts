import { open } from 'node:fs/promises';
import type Database from 'better-sqlite3';

/**
 * Makes the commits made so far durable without blocking the event loop: `fdatasync` of the
 * database's write-ahead log on libuv's thread pool. Calls while a sync is in flight share the
 * next one (a commit made after the running sync started is not covered by it), so a burst pays
 * one sync per round, not one per commit, and the receiver's thread never waits on the disk.
 */
export type WalSync = () => Promise<void>;

export interface WalSyncOptions {
  /** The database file; its log is `<path>-wal`. `:memory:` has none: nothing to sync. */
  path: string;
  /** Syncs one file; default: open, `fdatasync`, close (node:fs/promises). */
  syncFile?: (file: string) => Promise<void>;
}

export function createWalSync(options: WalSyncOptions): WalSync {
  if (options.path === ':memory:') return async () => undefined;
  const file = `${options.path}-wal`;
  const syncFile = options.syncFile ?? fdatasyncFile;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const round = syncFile(file).finally(() => {
      if (running === round) running = null;
    });
    running = round;
    return round;
  };
  return () => {
    if (!running) return start();
    // Covers only what was committed before it started: wait for it, then for a round of our own.
    next ??= running.catch(() => undefined).then(() => {
      next = null;
      return start();
    });
    return next;
  };
}

/**
 * Runs `commit` with this connection's `synchronous` at NORMAL (in WAL mode: no fsync at commit;
 * the log is still synced before every checkpoint), then back at FULL. The caller either syncs
 * the log itself before it reports the commit (WalSync), or can lose the commit in a power cut.
 */
export function commitUnsynced<T>(db: Database.Database, commit: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return commit();
  } finally {
    db.pragma('synchronous = FULL');
  }
}

async function fdatasyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

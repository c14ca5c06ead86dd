import { open, type FileHandle } from 'node:fs/promises';
import type Database from 'better-sqlite3';

/**
 * Makes the commits made so far durable without blocking the event loop: `fdatasync` of the
 * database's write-ahead log on libuv's thread pool. Calls while a sync is in flight share the
 * next one (a commit made after the running sync started is not covered by it), so a burst pays
 * one sync per round, not one per commit, and the receiver's thread never waits on the disk.
 */
export interface WalSync {
  sync(): Promise<void>;
  /** Lets go of the log file (the queue is closing). */
  close(): Promise<void>;
}

/** One open log file: `sync` flushes what was written to it, by any descriptor, to the disk. */
export interface SyncedFile {
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface WalSyncOptions {
  /** The database file, in WAL mode; its log is `<path>-wal`. */
  path: string;
  /** Opens the log for syncing; default: node:fs/promises, `fdatasync`. */
  openFile?: (file: string) => Promise<SyncedFile>;
}

/**
 * The log is opened at the first sync and kept: SQLite removes `-wal` only when the last
 * connection closes, and this queue's own connection is open as long as it is. A failed open or
 * sync is reported to that round's callers; the next round opens the file again.
 */
export function createWalSync(options: WalSyncOptions): WalSync {
  const file = `${options.path}-wal`;
  const openFile = options.openFile ?? openForSync;
  let opened: Promise<SyncedFile> | null = null;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const syncOnce = async () => {
    opened ??= openFile(file);
    const mine = opened;
    try {
      await (await mine).sync();
    } catch (error) {
      if (opened === mine) opened = null;
      await mine.then((f) => f.close()).catch(() => undefined);
      throw error;
    }
  };
  const start = (): Promise<void> => {
    const round = syncOnce().finally(() => {
      if (running === round) running = null;
    });
    running = round;
    return round;
  };
  return {
    sync() {
      if (!running) return start();
      // Covers only what was committed before it started: wait for it, then for a round of our own.
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = null;
          return start();
        });
      return next;
    },
    async close() {
      await Promise.allSettled([running, next]);
      const last = opened;
      opened = null;
      if (last) await last.then((f) => f.close()).catch(() => undefined);
    },
  };
}

/**
 * Runs `commit` with this connection's `synchronous` at NORMAL (in WAL mode: no fsync at commit;
 * the log is still synced before every checkpoint), then back at FULL. Until the caller's sync of
 * the log (WalSync) is done, a power cut can take the commit; a process crash cannot.
 */
export function createUnsyncedCommit(db: Database.Database): <T>(commit: () => T) => T {
  const normal = db.prepare('PRAGMA synchronous = NORMAL');
  const full = db.prepare('PRAGMA synchronous = FULL');
  return (commit) => {
    normal.run();
    try {
      return commit();
    } finally {
      full.run();
    }
  };
}

async function openForSync(file: string): Promise<SyncedFile> {
  const handle: FileHandle = await open(file, 'r');
  return { sync: () => handle.datasync(), close: () => handle.close() };
}

import type Database from 'better-sqlite3';
import { groupCommit } from './group-commit.js';

/**
 * Everything the receiver answered, for finding what a power cut took (app/recover-deliveries.ts).
 * The SQLite queue answers a delivery once its commit is written, before the disk sync: a process
 * crash loses nothing (the log is in the page cache), a power cut may lose the last commits, and
 * GitHub's delivery log tells which. Jobs carry their own delivery id; the others are recorded here.
 */
export interface AnsweredDeliveries {
  /** Records a delivery answered without a job of its own (ignored, refused, cancelling, a duplicate). */
  record(deliveryId: string): Promise<void>;
  /** Of `ids`, those with neither a record nor a job. */
  unknown(ids: readonly string[]): Promise<string[]>;
  /**
   * Where a comparison with GitHub's log starts (epoch ms): `marginMs` before the newest record or
   * job, never before this database began recording; null: nothing answered since then.
   */
  checkFrom(marginMs: number): Promise<number | null>;
}

export interface AnsweredDeliveriesOptions {
  db: Database.Database;
  now: () => number;
  /** Runs a commit unsynced (wal-sync.ts). */
  unsynced: <T>(commit: () => T) => T;
  /** Starts the disk sync of what was committed (not awaited). */
  afterCommit: () => void;
}

/** Records one delivery as answered at `at` (inside the caller's transaction; a second record of it changes nothing). */
export function answeredRecorder(db: Database.Database): (deliveryId: string, at: number) => void {
  const insert = db.prepare<[string, number]>('INSERT OR IGNORE INTO answered (delivery_id, at) VALUES (?, ?)');
  return (deliveryId, at) => void insert.run(deliveryId, at);
}

export function createAnsweredDeliveries(o: AnsweredDeliveriesOptions): AnsweredDeliveries {
  const { db } = o;
  const insert = answeredRecorder(db);
  const known = db.prepare<{ id: string }, { known: number }>(
    'SELECT EXISTS (SELECT 1 FROM answered WHERE delivery_id = @id) OR EXISTS (SELECT 1 FROM jobs WHERE delivery_id = @id) AS known',
  );
  const newestAnswered = db.prepare<[], { at: number }>('SELECT at FROM answered ORDER BY at DESC LIMIT 1');
  const newestJob = db.prepare<[], { at: number }>('SELECT created_at AS at FROM jobs ORDER BY seq DESC LIMIT 1');
  const recordingSince = db.prepare<[], { at: number }>('SELECT at FROM answered_since LIMIT 1');
  const insertAll = db.transaction((ids: readonly string[]) => {
    for (const id of ids) insert(id, o.now());
  });
  const record = groupCommit<string, void>(
    (ids) => {
      o.unsynced(() => insertAll.immediate(ids));
      return ids.map(() => ({ ok: true, value: undefined }));
    },
    { afterCommit: o.afterCommit },
  );
  return {
    record,
    unknown: async (ids) => ids.filter((id) => known.get({ id })!.known === 0),
    async checkFrom(marginMs) {
      const since = recordingSince.get()?.at ?? 0;
      const newest = Math.max(newestAnswered.get()?.at ?? 0, newestJob.get()?.at ?? 0);
      return newest < since ? null : Math.max(since, newest - marginMs);
    },
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import type { JobQueue } from '../../src/queue/types.js';

export const BACKOFF = { baseMs: 1_000, maxMs: 60_000 };

export interface SqliteFixture {
  dir: string;
  path: string;
  queue: JobQueue;
  /** Another handle on the same file and clock (a restarted process). */
  open(): JobQueue;
  clock: { advance(ms: number): void; now(): number };
  cleanup(): Promise<void>;
}

/** A queue on a real file in a fresh temp dir, with a fake clock; cleanup closes it and removes the dir. */
export function sqliteFixture(): SqliteFixture {
  const dir = mkdtempSync(join(tmpdir(), 'gf-queue-'));
  let now = 1_700_000_000_000;
  const path = join(dir, 'queue.db');
  const opened: JobQueue[] = [];
  const open = () => {
    const queue = openSqliteQueue({ path, now: () => now, backoff: BACKOFF });
    opened.push(queue);
    return queue;
  };
  const queue = open();
  return {
    dir,
    path,
    queue,
    open,
    clock: { advance: (ms) => void (now += ms), now: () => now },
    cleanup: async () => {
      for (const q of opened) await q.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupCommit } from '../../src/queue/group-commit.js';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { createWalSync } from '../../src/queue/wal-sync.js';
import { jobRequest } from './job-requests.js';

/** A log file whose syncs the test finishes by hand: `calls` lists the file of each sync, `finish(i)` ends the i-th. */
function heldSync() {
  const calls: string[] = [];
  const opens: string[] = [];
  const closes: string[] = [];
  const ends: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  const openFile = async (file: string) => {
    opens.push(file);
    return {
      sync: () => new Promise<void>((resolve, reject) => (calls.push(file), ends.push({ resolve, reject }))),
      close: async () => void closes.push(file),
    };
  };
  return {
    calls,
    opens,
    closes,
    openFile,
    finish: (i: number) => ends[i]!.resolve(),
    fail: (i: number, message: string) => ends[i]!.reject(new Error(message)),
  };
}

const until = async (check: () => boolean) => {
  while (!check()) await turn();
};

const turn = () => new Promise((resolve) => setImmediate(resolve));
const settled = <T>(p: Promise<T>) => {
  const state = { done: false };
  p.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
};

describe('createWalSync', () => {
  it('syncs the log file; calls during a sync share one more round, which starts after it', async () => {
    const held = heldSync();
    const { sync, close } = createWalSync({ path: '/db/queue.db', openFile: held.openFile });
    const first = settled(sync());
    const second = settled(sync());
    const third = settled(sync());
    await until(() => held.calls.length > 0);
    await turn();
    expect(held.calls).toEqual(['/db/queue.db-wal']); // the second round waits for the first
    held.finish(0);
    await until(() => held.calls.length === 2);
    expect(first.done).toBe(true);
    expect(second.done || third.done).toBe(false); // committed after round 0 started: not covered by it
    held.finish(1);
    await until(() => second.done && third.done);
    const idle = sync(); // idle again: a fresh round at once
    await until(() => held.calls.length === 3);
    held.finish(2);
    await idle;
    expect(held.opens).toEqual(['/db/queue.db-wal']); // opened once, kept
    await close();
    expect(held.closes).toEqual(['/db/queue.db-wal']);
  });

  it('a failed round fails its callers only; the next round opens the log again and runs', async () => {
    const held = heldSync();
    const { sync } = createWalSync({ path: '/db/q.db', openFile: held.openFile });
    const failing = sync();
    const next = sync();
    await until(() => held.calls.length === 1);
    held.fail(0, 'EIO');
    await expect(failing).rejects.toThrow('EIO');
    await until(() => held.calls.length === 2);
    held.finish(1);
    await expect(next).resolves.toBeUndefined();
    expect(held.opens).toHaveLength(2);
    expect(held.closes).toHaveLength(1);
  });

  it('a queue without a write-ahead log (in memory) commits its enqueues synced, as before: no log to sync', async () => {
    const held = heldSync();
    const queue = openSqliteQueue({ path: ':memory:', openLog: held.openFile });
    try {
      expect((await queue.enqueue(jobRequest(1, 1), { deliveryId: 'm-1' })).created).toBe(true);
      expect(held.opens).toEqual([]);
    } finally {
      await queue.close();
    }
  });
});

describe('groupCommit with an afterCommit step', () => {
  it('starts it once per batch, after the batch is applied, and answers the callers without waiting for anything', async () => {
    const applied: number[][] = [];
    const after: number[] = [];
    const apply = groupCommit<number, number>((items) => (applied.push([...items]), items.map((n) => ({ ok: true, value: n * 10 }))), { afterCommit: () => after.push(applied.length) });
    expect(await Promise.all([apply(1), apply(2)])).toEqual([10, 20]);
    expect(await apply(3)).toBe(30);
    expect(applied).toEqual([[1, 2], [3]]);
    expect(after).toEqual([1, 2]);
  });
});

describe('SQLite enqueue: answered at the commit, the log synced off the thread', () => {
  it('resolves while the sync it started is still running; a failed sync is told, and the job stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gf-walsync-'));
    const path = join(dir, 'queue.db');
    const held = heldSync();
    const errors: unknown[] = [];
    const queue = openSqliteQueue({ path, openLog: held.openFile, onSyncError: (error) => errors.push(error) });
    const other = openSqliteQueue({ path });
    try {
      expect((await queue.enqueue(jobRequest(1, 1), { deliveryId: 'd-1' })).created).toBe(true);
      expect(held.calls).toEqual([`${path}-wal`]); // started, not finished
      expect(await other.counts()).toMatchObject({ queued: 1 });
      const second = await queue.enqueue(jobRequest(1, 2), { deliveryId: 'd-2' });
      expect(second.created).toBe(true);
      held.fail(0, 'EIO');
      await until(() => held.calls.length === 2); // the second commit's own round, after the first
      held.finish(1);
      await until(() => errors.length === 1);
      expect(String(errors[0])).toContain('EIO');
      expect(await queue.enqueue(jobRequest(1, 2), { deliveryId: 'd-2' })).toMatchObject({ created: false, job: { id: second.job.id } });
      await until(() => held.calls.length === 3);
    } finally {
      held.calls.forEach((_, i) => held.finish(i)); // a settled one stays as it was
      await queue.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

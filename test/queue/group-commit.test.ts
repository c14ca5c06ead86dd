import { describe, expect, it } from '@jest/globals';
import { groupCommit } from '../../src/queue/group-commit.js';
import { jobRequest } from './job-requests.js';
import { sqliteFixture } from './sqlite-fixture.js';

describe('groupCommit', () => {
  it('applies calls of one event-loop turn together, each caller getting its own result', async () => {
    const batches: number[][] = [];
    const double = groupCommit<number, number>((items) => {
      batches.push([...items]);
      return items.map((n) => (n < 0 ? { ok: false, error: new RangeError(`negative: ${n}`) } : { ok: true, value: n * 2 }));
    });
    const first = await Promise.allSettled([double(1), double(-2), double(3)]);
    const later = await double(4);
    expect(first).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: new RangeError('negative: -2') },
      { status: 'fulfilled', value: 6 },
    ]);
    expect(later).toBe(8);
    expect(batches).toEqual([[1, -2, 3], [4]]);
  });

  it('rejects every caller of a batch whose apply throws (the transaction failed as a whole)', async () => {
    const failing = groupCommit<number, number>(() => {
      throw new Error('SQLITE_BUSY');
    });
    await expect(Promise.all([failing(1), failing(2)])).rejects.toThrow('SQLITE_BUSY');
  });
});

describe('SQLite enqueue under a burst (group commit)', () => {
  it('dedupes inside one batch and lets a bad call fail alone', async () => {
    const f = sqliteFixture();
    try {
      const results = await Promise.allSettled([
        f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' }),
        f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' }),
        f.queue.enqueue(jobRequest(1, 2), { deliveryId: 'b', maxAttempts: 0 }),
        f.queue.enqueue(jobRequest(1, 3), { deliveryId: 'c' }),
      ]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value.created : 'rejected'))).toEqual([true, false, 'rejected', true]);
      expect(await f.open().counts()).toMatchObject({ queued: 2 }); // committed: another handle sees them
    } finally {
      await f.cleanup();
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import type { JobQueue } from '../../src/queue/types.js';
import { jobRequest } from './job-requests.js';

const HOUR = 3_600_000;

describe('the SQLite queue\'s answered deliveries (what GitHub\'s log is compared with after a power cut)', () => {
  let dir: string;
  let queue: JobQueue | null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gf-answered-'));
    queue = null;
  });
  afterEach(async () => {
    await queue?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('knows a delivery by its record or by its job; any other is unknown', async () => {
    queue = openSqliteQueue({ path: join(dir, 'q.db') });
    const answered = queue.answered!;
    await answered.record('ignored-1');
    await answered.record('ignored-1'); // a redelivery of an ignored one
    await queue.enqueue(jobRequest(1, 1), { deliveryId: 'job-1' });
    expect(await answered.unknown(['ignored-1', 'job-1', 'lost-1'])).toEqual(['lost-1']);
  });

  it('still knows the delivery of a job that authorisation removed', async () => {
    queue = openSqliteQueue({ path: join(dir, 'q.db') });
    const { job } = await queue.enqueue(jobRequest(1, 1), { deliveryId: 'refused-1', authorize: 'refusal' });
    expect((await queue.authorize(job.id, false)).changed).toBe(true);
    expect(await queue.get(job.id)).toBeNull();
    expect(await queue.answered!.unknown(['refused-1'])).toEqual([]);
  });

  it('starts a check before the newest answer by the margin, never before the database began recording, and not at all before anything was answered', async () => {
    let now = Date.now() + HOUR; // later than the migration that began recording
    queue = openSqliteQueue({ path: join(dir, 'q.db'), now: () => now });
    const answered = queue.answered!;
    expect(await answered.checkFrom(60_000)).toBeNull();
    await answered.record('a');
    expect(await answered.checkFrom(60_000)).toBe(now - 60_000);
    now += 5_000;
    await queue.enqueue(jobRequest(1, 1), { deliveryId: 'job-1' });
    expect(await answered.checkFrom(60_000)).toBe(now - 60_000);
    const since = await answered.checkFrom(10 * HOUR);
    expect(since).toBeGreaterThan(now - 10 * HOUR); // bounded by when recording began
    expect(since).toBeLessThanOrEqual(Date.now());
  });

  it('forgets records with the jobs of their age (prune)', async () => {
    let now = Date.now() + HOUR;
    queue = openSqliteQueue({ path: join(dir, 'q.db'), now: () => now });
    await queue.answered!.record('old');
    now += 1_000;
    await queue.answered!.record('new');
    await queue.prune(now, 100);
    expect(await queue.answered!.unknown(['old', 'new'])).toEqual(['old']);
  });

  it('starts a sync of the log for a record, as for an enqueue', async () => {
    const calls: string[] = [];
    const path = join(dir, 'q.db');
    queue = openSqliteQueue({ path, openLog: async (file) => ({ sync: async () => void calls.push(file), close: async () => undefined }) });
    await queue.answered!.record('x');
    expect(calls).toEqual([`${path}-wal`]);
  });

  it('is absent where the commit syncs itself (no write-ahead log: in memory)', async () => {
    queue = openSqliteQueue({ path: ':memory:' });
    expect(queue.answered).toBeUndefined();
  });
});

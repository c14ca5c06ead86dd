import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { backoffDelay } from '../../src/queue/backoff.js';
import { CorruptJobError, QueueOpenError } from '../../src/queue/errors.js';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { MIGRATIONS } from '../../src/queue/sqlite-schema.js';
import { describeJobQueueContract } from './job-queue-contract.js';
import { describePullRequestContract } from './pull-requests-contract.js';
import { describeSpendContract } from './spend-contract.js';
import { jobRequest } from './job-requests.js';
import { BACKOFF, sqliteFixture, type SqliteFixture } from './sqlite-fixture.js';

describeJobQueueContract('SQLite', async () => sqliteFixture());
describeSpendContract('SQLite', async () => sqliteFixture());
describePullRequestContract('SQLite', async () => sqliteFixture());

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };

describe('SQLite queue', () => {
  let f: SqliteFixture;
  beforeEach(() => (f = sqliteFixture()));
  afterEach(async () => f.cleanup());

  it('keeps the database and its WAL files private (0600)', async () => {
    await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    for (const file of [f.path, `${f.path}-wal`, `${f.path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a 1,000-delivery burst with 10% duplicates makes exactly one job per distinct delivery', async () => {
    const deliveries = Array.from({ length: 1_000 }, (_, i) => (i % 10 === 9 ? `d${i - 9}` : `d${i}`));
    const results = await Promise.all(deliveries.map((d, i) => f.queue.enqueue(jobRequest(i % 7, i), { deliveryId: d })));
    expect(results.filter((r) => r.created)).toHaveLength(900);
    const byDelivery = new Map(results.filter((r) => r.created).map((r) => [r.job.deliveryId, r.job.id]));
    expect(byDelivery.size).toBe(900);
    for (const r of results) expect(r.job.id).toBe(byDelivery.get(r.job.deliveryId));
    expect(await f.queue.counts()).toEqual({ queued: 900, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
  });

  it('keeps jobs across close and reopen', async () => {
    const a = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const b = await f.queue.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
    await f.queue.complete((await f.queue.claim(LEASE))!.lease, { pr: 42 });
    await f.queue.close();
    const reopened = f.open();
    expect(await reopened.get(a.job.id)).toMatchObject({ state: 'succeeded', result: { pr: 42 } });
    expect(await reopened.get(b.job.id)).toEqual(b.job);
    expect((await reopened.enqueue(jobRequest(1, 1), { deliveryId: 'a' })).created).toBe(false);
  });

  it('picks a job up again at startup when the process holding it died', async () => {
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    await f.queue.claim(LEASE);
    await f.queue.close(); // the process dies mid-job: no complete, no release
    f.clock.advance(LEASE.leaseMs + 1);
    const restarted = f.open();
    expect((await restarted.claim(LEASE))?.job).toMatchObject({ id: job.id, attempts: 2, state: 'running' });
  });

  it('a stalled job with no attempts left fails instead of running again', async () => {
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a', maxAttempts: 1 });
    await f.queue.claim(LEASE);
    f.clock.advance(LEASE.leaseMs + 1);
    expect(await f.queue.claim(LEASE)).toBeNull();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'failed', error: 'the lease expired during attempt 1 of 1 (the worker stopped or stalled)' });
  });

  it('a stalled job flagged for cancellation ends cancelled, not claimed', async () => {
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    await f.queue.claim(LEASE);
    await f.queue.cancel(job.subject, '/agent cancel');
    f.clock.advance(LEASE.leaseMs + 1);
    expect(await f.queue.claim(LEASE)).toBeNull();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'cancelled', cancelReason: '/agent cancel' });
  });

  it('a flagged job is neither retried nor handed out again after release', async () => {
    const a = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const b = await f.queue.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
    const first = (await f.queue.claim(LEASE))!;
    const second = (await f.queue.claim(LEASE))!;
    await f.queue.cancel(a.job.subject, 'closed');
    await f.queue.cancel(b.job.subject, 'closed');
    expect(await f.queue.fail(first.lease, { message: 'aborted', retryable: true })).toBe('failed');
    await f.queue.release(second.lease);
    expect((await f.queue.get(b.job.id))?.state).toBe('cancelled');
  });

  it('backs off base·2^(attempts−1), capped', async () => {
    expect([1, 2, 3, 7, 40].map((n) => backoffDelay(n, BACKOFF))).toEqual([1_000, 2_000, 4_000, 60_000, 60_000]);
    await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a', maxAttempts: 5 });
    for (const delay of [1_000, 2_000, 4_000]) {
      const { lease } = (await f.queue.claim(LEASE))!;
      await f.queue.fail(lease, { message: 'flaky', retryable: true });
      expect((await f.queue.get(lease.jobId))?.runAfter).toBe(f.clock.now() + delay);
      f.clock.advance(delay - 1);
      expect(await f.queue.claim(LEASE)).toBeNull();
      f.clock.advance(1);
    }
  });

  it('names a corrupted row instead of returning garbage', async () => {
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const raw = new Database(f.path);
    raw.prepare('UPDATE jobs SET request = ? WHERE id = ?').run('{"kind":"nonsense"}', job.id);
    raw.close();
    const error = await f.queue.get(job.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptJobError);
    expect(error).toMatchObject({ jobId: job.id });
  });

  it('a corrupted row is failed at claim time instead of blocking the queue', async () => {
    const bad = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const good = await f.queue.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
    const raw = new Database(f.path);
    raw.prepare('UPDATE jobs SET request = ? WHERE id = ?').run('not json', bad.job.id);
    expect((await f.queue.claim(LEASE))?.job.id).toBe(good.job.id);
    expect(raw.prepare('SELECT state, error FROM jobs WHERE id = ?').get(bad.job.id)).toEqual({
      state: 'failed',
      error: `job ${bad.job.id} in the queue database is corrupt: request is not valid JSON`,
    });
    raw.close();
  });

  it('migration 3 gives the jobs and spend of an older database their installation', async () => {
    const path = join(f.dir, 'v2.db');
    const raw = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 2)) raw.exec(sql);
    raw.pragma('user_version = 2');
    const request = JSON.stringify(jobRequest(1, 1));
    raw.prepare(`INSERT INTO jobs (id, delivery_id, subject, repo_key, request, state, attempts, max_attempts, run_after, created_at, updated_at)
      VALUES ('old', 'd-old', 'octo/repo-1#1', '1', ?, 'succeeded', 1, 3, 0, 0, 0)`).run(request);
    raw.prepare(`INSERT INTO spend (job_id, repo_key, usd, at) VALUES ('old', '1', 0.5, 10)`).run();
    raw.close();
    const migrated = openSqliteQueue({ path });
    try {
      expect(await migrated.spentByInstallation('7', 0)).toBeCloseTo(0.5, 10);
      expect(await migrated.spent('1', 0)).toBeCloseTo(0.5, 10);
      expect((await migrated.get('old'))?.state).toBe('succeeded');
    } finally {
      await migrated.close();
    }
  });

  it('migration 5 keeps every job and the seq counter of a pruned queue, and adds the authorizing state', async () => {
    const path = join(f.dir, 'v4.db');
    const raw = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 4)) raw.exec(sql);
    raw.pragma('user_version = 4');
    const insert = raw.prepare(`INSERT INTO jobs (seq, id, delivery_id, subject, repo_key, installation_key, request, state, attempts, max_attempts, run_after, created_at, updated_at)
      VALUES (?, ?, ?, 'octo/repo-1#1', '1', '7', ?, ?, 1, 3, 0, 0, 0)`);
    insert.run(1, 'kept', 'd-kept', JSON.stringify(jobRequest(1, 1)), 'succeeded');
    insert.run(40, 'pruned', 'd-pruned', JSON.stringify(jobRequest(1, 1)), 'failed');
    raw.prepare(`DELETE FROM jobs WHERE id = 'pruned'`).run();
    raw.close();
    const migrated = openSqliteQueue({ path });
    try {
      expect(await migrated.get('kept')).toMatchObject({ state: 'succeeded', authorize: null, deliveryId: 'd-kept' });
      const next = await migrated.enqueue(jobRequest(1, 2), { deliveryId: 'd-new', authorize: 'outsider' });
      expect(next.job).toMatchObject({ state: 'authorizing', authorize: 'outsider' });
    } finally {
      await migrated.close();
    }
    const check = new Database(path, { readonly: true });
    try {
      expect(check.prepare(`SELECT seq FROM jobs WHERE id = 'kept'`).get()).toEqual({ seq: 1 });
      expect(check.prepare(`SELECT seq FROM jobs WHERE delivery_id = 'd-new'`).get()).toEqual({ seq: 41 });
    } finally {
      check.close();
    }
  });

  it('refuses to start on a file that is not a database, an unwritable path or a newer schema', () => {
    const notDb = join(f.dir, 'not-a-db');
    writeFileSync(notDb, 'x'.repeat(4096));
    expect(() => openSqliteQueue({ path: notDb })).toThrow(expect.objectContaining({ name: 'QueueOpenError', kind: 'corrupt', path: notDb }));
    const underAFile = join(notDb, 'queue.db');
    expect(() => openSqliteQueue({ path: underAFile })).toThrow(expect.objectContaining({ kind: 'unwritable', path: underAFile }));
    const raw = new Database(join(f.dir, 'future.db'));
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openSqliteQueue({ path: join(f.dir, 'future.db') })).toThrow(QueueOpenError);
    expect(() => openSqliteQueue({ path: join(f.dir, 'future.db') })).toThrow(expect.objectContaining({ kind: 'newer_schema' }));
  });
});

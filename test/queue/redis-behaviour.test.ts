import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { jobIdForDelivery, openRedisQueue } from '../../src/queue/redis-queue.js';
import { CorruptJobError } from '../../src/queue/errors.js';
import { RedisQueueOpenError } from '../../src/queue/redis-connect.js';
import type { JobQueue } from '../../src/queue/types.js';
import { jobRequest } from './job-requests.js';
import { RedisServerError, startRedisServer, type RedisServer } from './redis-server.js';

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };

describe('Redis queue on a real redis-server', () => {
  let server: RedisServer;
  let admin: Redis;
  let prefix: string;
  let now: number;
  const opened: JobQueue[] = [];
  const open = async () => {
    const queue = await openRedisQueue({ url: server.url, prefix, now: () => now });
    opened.push(queue);
    return queue;
  };
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    await admin?.quit();
    await server?.stop();
  });
  beforeEach(() => {
    prefix = `gf-${randomUUID()}`;
    now = 1_700_000_000_000;
  });
  afterEach(async () => {
    for (const q of opened.splice(0)) await q.close();
    await admin.flushall();
  });

  it('a 1,000-delivery burst with 10% duplicates makes exactly one job per distinct delivery, id derived from it', async () => {
    const q = await open();
    const deliveries = Array.from({ length: 1_000 }, (_, i) => (i % 10 === 9 ? `d${i - 9}` : `d${i}`));
    const results = await Promise.all(deliveries.map((d, i) => q.enqueue(jobRequest(i % 7, i), { deliveryId: d })));
    expect(results.filter((r) => r.created)).toHaveLength(900);
    for (const r of results) expect(r.job.id).toBe(jobIdForDelivery(r.job.deliveryId));
    expect(await q.counts()).toEqual({ queued: 900, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    expect(await admin.keys(`${prefix}:job:*`)).toHaveLength(900);
  });

  it('two queues on two connections racing for one job: exactly one gets it, every round', async () => {
    const [a, b] = [await open(), await open()];
    for (let round = 0; round < 20; round++) {
      await a.enqueue(jobRequest(round, 1), { deliveryId: `race-${round}` });
      const claims = await Promise.all([a, b, a, b].map((q, i) => q.claim({ ...LEASE, workerId: `w${i}` })));
      const winners = claims.filter((c) => c !== null);
      expect(winners).toHaveLength(1);
      await (round % 2 ? a : b).complete(winners[0]!.lease, { round });
    }
    expect((await b.counts()).succeeded).toBe(20);
  });

  it('Redis restarted while a job is leased: the job is still there and its holder completes it', async () => {
    const q = await open();
    const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const { lease } = (await q.claim(LEASE))!;
    await server.restart();
    expect(await q.heartbeat(lease, 60_000)).toEqual({ held: true, cancelReason: null });
    await q.complete(lease, { pr: 7 });
    expect(await q.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 1, result: { pr: 7 } });
  });

  it('Redis restarted while the holder is gone: another worker reclaims the job after the lease', async () => {
    const crashed = await open();
    const { job } = await crashed.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    await crashed.claim({ ...LEASE, workerId: 'crashed' });
    await server.restart();
    const other = await open();
    expect(await other.claim(LEASE)).toBeNull();
    now += LEASE.leaseMs + 1;
    const again = (await other.claim(LEASE))!;
    expect(again.job).toMatchObject({ id: job.id, attempts: 2, state: 'running' });
    await other.complete(again.lease, null);
    expect((await other.get(job.id))?.state).toBe('succeeded');
  });

  it('keeps jobs, dedupe keys and notes across a restart (AOF)', async () => {
    const q = await open();
    const a = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a', dedupeKey: 'sha+checks' });
    const b = await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
    await q.complete((await q.claim(LEASE))!.lease, { pr: 42 });
    await q.noteOnce('refusal:1#1:fork');
    await q.close();
    await server.restart();
    const reopened = await open();
    expect(await reopened.get(a.job.id)).toMatchObject({ state: 'succeeded', result: { pr: 42 } });
    expect(await reopened.get(b.job.id)).toEqual(b.job);
    expect((await reopened.enqueue(jobRequest(1, 1), { deliveryId: 'a' })).created).toBe(false);
    expect((await reopened.enqueue(jobRequest(3, 3), { deliveryId: 'c', dedupeKey: 'sha+checks' })).job.id).toBe(a.job.id);
    expect(await reopened.noteOnce('refusal:1#1:fork')).toBe(false);
  });

  it('a damaged job hash is named on read and failed at claim time instead of blocking the queue', async () => {
    const q = await open();
    const bad = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const good = await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
    await admin.hset(`${prefix}:job:${bad.job.id}`, 'request', 'not json');
    await expect(q.get(bad.job.id)).rejects.toBeInstanceOf(CorruptJobError);
    expect((await q.claim(LEASE))?.job.id).toBe(good.job.id);
    expect(await admin.hmget(`${prefix}:job:${bad.job.id}`, 'state', 'error')).toEqual([
      'failed',
      `job ${bad.job.id} in the queue database is corrupt: request is not valid JSON`,
    ]);
  });

  it('stores nothing but the JobRequest and the job bookkeeping', async () => {
    const q = await open();
    const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const stored = await admin.hgetall(`${prefix}:job:${job.id}`);
    expect(Object.keys(stored).sort()).toEqual(['attempts', 'created_at', 'delivery_id', 'id', 'max_attempts', 'repo_key', 'request', 'run_after', 'seq', 'state', 'subject', 'updated_at']);
    expect(JSON.parse(stored.request!)).toEqual(jobRequest(1, 1));
  });
});

describe('Redis queue startup failures', () => {
  it('an unreachable Redis fails at open with a typed error that hides the password', async () => {
    const error = await openRedisQueue({ url: 'redis://:s3cret@127.0.0.1:1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisQueueOpenError);
    expect(error).toMatchObject({ kind: 'unreachable', url: 'redis://:***@127.0.0.1:1' });
    expect(String((error as Error).message)).not.toContain('s3cret');
  });

  it('a missing redis-server fails the tests with a clear message instead of skipping them', async () => {
    expect(existsSync('/nonexistent/redis-server')).toBe(false);
    const error = await startRedisServer({ command: '/nonexistent/redis-server' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisServerError);
    expect((error as Error).message).toMatch(/is not installed \(apt-get install redis-server/);
  });
});

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { openBullmqQueue, type BullmqQueueOptions } from '../../src/queue/bullmq-queue.js';
import { CorruptJobError } from '../../src/queue/errors.js';
import { jobIdForDelivery } from '../../src/queue/bullmq-queue.js';
import { RedisQueueOpenError } from '../../src/queue/redis-connect.js';
import type { JobQueue } from '../../src/queue/types.js';
import { jobRequest } from './job-requests.js';
import { advanceRedisClock } from './redis-time.js';
import { RedisServerError, startRedisServer, type RedisServer } from '../support/redis-server.js';

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };

describe('BullMQ queue on a real redis-server', () => {
  let server: RedisServer;
  let admin: Redis;
  let prefix: string;
  let now: number;
  const opened: Array<{ close(): Promise<unknown> }> = [];
  const open = async (options: Partial<BullmqQueueOptions> = {}): Promise<JobQueue> => {
    const queue = await openBullmqQueue({ url: server.url, prefix, now: () => now, ...options });
    opened.push(queue);
    return queue;
  };
  /** Time passes for the record (injected clock) and for Redis (key TTLs: BullMQ's locks). */
  const advance = async (ms: number) => {
    now += ms;
    await advanceRedisClock(admin, ms);
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
    prefix = `{gf-${randomUUID()}}`;
    now = Date.now();
  });
  afterEach(async () => {
    for (const q of opened.splice(0)) await q.close();
    await admin.flushall();
  });

  it('a 1,000-delivery burst with 10% duplicates makes exactly one BullMQ job per distinct delivery, id derived from it', async () => {
    const q = await open();
    const deliveries = Array.from({ length: 1_000 }, (_, i) => (i % 10 === 9 ? `d${i - 9}` : `d${i}`));
    const results = await Promise.all(deliveries.map((d, i) => q.enqueue(jobRequest(i % 7, i), { deliveryId: d })));
    expect(results.filter((r) => r.created)).toHaveLength(900);
    for (const r of results) expect(r.job.id).toBe(jobIdForDelivery(r.job.deliveryId));
    expect(await q.counts()).toEqual({ queued: 900, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    const bull = new Queue('jobs', { connection: admin, prefix });
    opened.push(bull);
    expect(await bull.getJobCounts('wait', 'active', 'delayed')).toEqual({ wait: 900, active: 0, delayed: 0 });
    expect(await admin.zcard(`${prefix}:gf:pending`)).toBe(0);
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

  it('Redis restarted while a job is leased: the job and its lock are still there and its holder completes it', async () => {
    const q = await open();
    const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const { lease } = (await q.claim(LEASE))!;
    await server.restart();
    expect(await q.heartbeat(lease, 60_000)).toEqual({ held: true, cancelReason: null });
    await q.complete(lease, { pr: 7 });
    expect(await q.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 1, result: { pr: 7 } });
  });

  it('Redis restarted while the holder is gone: another worker reclaims the job once the lock lapsed', async () => {
    const crashed = await open();
    const { job } = await crashed.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    await crashed.claim({ ...LEASE, workerId: 'crashed' });
    await server.restart();
    const other = await open();
    expect(await other.claim(LEASE)).toBeNull();
    await advance(LEASE.leaseMs + 1);
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
    expect((await reopened.claim(LEASE))?.job.id).toBe(b.job.id);
  });

  it('a damaged job record is named on read and failed at claim time instead of blocking the queue', async () => {
    const q = await open();
    const bad = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const good = await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
    await admin.hset(`${prefix}:gf:job:${bad.job.id}`, 'request', 'not json');
    await expect(q.get(bad.job.id)).rejects.toBeInstanceOf(CorruptJobError);
    expect((await q.claim(LEASE))?.job.id).toBe(good.job.id);
    const error = `job ${bad.job.id} in the queue database is corrupt: request is not valid JSON`;
    expect(await admin.hmget(`${prefix}:gf:job:${bad.job.id}`, 'state', 'error')).toEqual(['failed', error]);
    expect(await admin.hget(`${prefix}:jobs:${bad.job.id}`, 'failedReason')).toBe(error);
  });

  it('stores nothing but the JobRequest: as the BullMQ job data, and in the record beside the bookkeeping', async () => {
    const q = await open();
    const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const record = await admin.hgetall(`${prefix}:gf:job:${job.id}`);
    expect(Object.keys(record).sort()).toEqual(['attempts', 'created_at', 'delivery_id', 'id', 'installation_key', 'max_attempts', 'repo_key', 'request', 'run_after', 'seq', 'state', 'subject', 'updated_at']);
    expect(JSON.parse(record.request!)).toEqual(jobRequest(1, 1));
    const bull = await admin.hgetall(`${prefix}:jobs:${job.id}`);
    expect(JSON.parse(bull.data!)).toEqual(jobRequest(1, 1));
    expect(bull.name).toBe('fix');
  });

  it('an enqueue whose receiver died before BullMQ got the job: a redelivery adds it, or a claim after 10 s', async () => {
    const q = await open();
    const strand = async (deliveryId: string) => {
      const { job } = await q.enqueue(jobRequest(deliveryId.length, 1), { deliveryId });
      await admin.del(`${prefix}:jobs:${job.id}`); // as if the add never happened
      await admin.lrem(`${prefix}:jobs:wait`, 0, job.id);
      await admin.zadd(`${prefix}:gf:pending`, now, job.id);
      return job;
    };
    const redelivered = await strand('a');
    expect(await q.claim(LEASE)).toBeNull();
    expect((await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' })).created).toBe(false);
    expect((await q.claim(LEASE))?.job.id).toBe(redelivered.id);
    const forgotten = await strand('bb');
    expect(await q.claim(LEASE)).toBeNull();
    await advance(10_000);
    expect((await q.claim(LEASE))?.job.id).toBe(forgotten.id);
  });

  it("a job BullMQ handed to a process that died before greenfix's record admitted it goes back via BullMQ's stalled checker", async () => {
    const q = await open({ stalledIntervalMs: 50 });
    const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const dead = new Worker('jobs', null, { connection: new Redis(server.url, { maxRetriesPerRequest: null }), prefix, autorun: false, lockDuration: 1_000 });
    opened.push({ close: async () => dead.close() }, { close: async () => (await dead.client).quit() });
    expect((await dead.getNextJob('dead-token', { block: false }))?.id).toBe(job.id);
    expect(await q.claim(LEASE)).toBeNull();
    await advance(1_000); // the dead process's lock lapses
    const deadline = Date.now() + 10_000;
    let claimed = await q.claim(LEASE);
    while (!claimed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      claimed = await q.claim(LEASE);
    }
    expect(claimed?.job).toMatchObject({ id: job.id, attempts: 1, state: 'running' });
  });
});

describe('BullMQ queue startup failures', () => {
  it('an unreachable Redis fails at open with a typed error that hides the password', async () => {
    const error = await openBullmqQueue({ url: 'redis://:s3cret@127.0.0.1:1' }).catch((e: unknown) => e);
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

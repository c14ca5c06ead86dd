import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { benchLoad } from '../../bench/load.js';
import { benchWebhookAck } from '../../bench/webhook-ack.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { startRedisServer } from '../support/redis-server.js';

/** The app-driving benchmarks at a tiny size (a file of their own: they are the slow half of the smoke tests). */
/** This process's fixtures only: another run's bench (a developer's, a CI neighbour's) may be making its own. */
const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`gf-bench-app-${process.pid}-`));
const sane = (value: number) => Number.isFinite(value) && value > 0;

describe('webhook acknowledgement', () => {
  it('answers every delivery and makes exactly one job per distinct delivery, with both workers busy meanwhile', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
    const before = leftovers();
    const r = await benchWebhookAck({ sandbox, deliveries: 5, burst: 40, connections: 10, throttledDeliveries: 2 });
    expect(leftovers()).toEqual(before);
    for (const s of [r.idle, r.enqueueIdle, r.busy, r.throttled]) expect(s.failed === 0 && sane(s.p50) && s.p99 >= s.p50).toBe(true);
    expect(r.busyRunningMin).toBe(2);
    expect(r.busyJobsEnded).toBe(0);
    expect(r.burst).toMatchObject({ deliveries: 40, distinct: 36, answered200: 40, jobs: 36, lost: 0, doubled: 0 });
  }, 120_000);
});

describe('load', () => {
  it('paces signed deliveries at a receiver on SQLite and on Redis: every one answered 200, one job per distinct delivery', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
    const before = leftovers();
    const redis = await startRedisServer();
    try {
      const r = await benchLoad({ sandbox, redisUrl: redis.url, perSecond: 40, seconds: 1, threads: false });
      expect(r).toMatchObject({ perSecond: 40, seconds: 1, throttling: 'off' });
      for (const v of [r.sqlite, r.redis]) {
        // 40 sent, every tenth a redelivery of an earlier id: 36 distinct.
        expect(v).toMatchObject({ sent: 40, distinct: 36, statuses: { '200': 40 }, jobs: 36, lost: 0, doubled: 0, mismatched: 0 });
        expect(sane(v.ack.p50) && v.ack.p99 >= v.ack.p50 && v.ack.max >= v.ack.p99).toBe(true);
        expect(v.spanMs).toBeGreaterThan(0);
        expect(v.drainMs).toBeGreaterThanOrEqual(v.spanMs);
      }
      expect([r.sqlite.queue, r.redis.queue]).toEqual(['SQLite', 'Redis']);
    } finally {
      await redis.stop();
    }
    expect(leftovers()).toEqual(before);
    // Its own server's directory: other suites' servers may come and go meanwhile.
    expect(existsSync(redis.dir)).toBe(false);
  }, 120_000);
});

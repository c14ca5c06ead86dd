import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { openBullmqQueue } from '../../src/queue/bullmq-queue.js';
import { describeJobQueueContract, type ContractFixture } from './job-queue-contract.js';
import { jobRequest } from './job-requests.js';
import { describePullRequestContract } from './pull-requests-contract.js';
import { describeSpendContract } from './spend-contract.js';
import { advanceRedisClock } from './redis-time.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

/** Backoff far beyond the test's run time, so BullMQ's own (real) clock never promotes a retry first. */
const BACKOFF = { baseMs: 60_000, maxMs: 600_000 };

/** One real redis-server for the file; each test gets a fresh key prefix and a flushed server. */
let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => server?.stop());

const bullmqFixture = async (): Promise<ContractFixture> => {
  let now = Date.now();
  const admin = new Redis(server.url);
  const queue = await openBullmqQueue({ url: server.url, prefix: `{gf-${randomUUID()}}`, now: () => now, backoff: BACKOFF });
  return {
    queue,
    clock: {
      async advance(ms) {
        now += ms;
        await advanceRedisClock(admin, ms);
      },
    },
    cleanup: async () => {
      await queue.close();
      await admin.flushall();
      await admin.quit();
    },
  };
};
describeJobQueueContract('BullMQ', bullmqFixture);
describeSpendContract('BullMQ', bullmqFixture);
describePullRequestContract('BullMQ', bullmqFixture);

describe("BullMQ queue on a clock of its own (BullMQ's delayed set keeps real time)", () => {
  const YEAR = 365 * 24 * 3_600_000;
  const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };

  it.each([['a year behind', -YEAR], ['a year ahead', YEAR]])('%s: a deferred job is not handed out before its time, the claim returns, and it runs once the clock reaches it', async (_name, offset) => {
    let now = Date.now() + offset;
    const queue = await openBullmqQueue({ url: server.url, prefix: `{gf-${randomUUID()}}`, now: () => now, backoff: BACKOFF });
    try {
      await queue.enqueue(jobRequest(1, 1), { deliveryId: 'd1' });
      const first = (await queue.claim(LEASE))!;
      await queue.defer(first.lease, { runAfter: now + 3_600_000, reason: 'a limit' });
      expect(await queue.claim(LEASE)).toBeNull();
      now += 3_600_000 - 1;
      expect(await queue.claim(LEASE)).toBeNull();
      now += 1;
      const again = await queue.claim(LEASE);
      expect(again?.job.id).toBe(first.job.id);
      expect(again?.job.attempts).toBe(1);
    } finally {
      await queue.close();
    }
  }, 20_000);
});

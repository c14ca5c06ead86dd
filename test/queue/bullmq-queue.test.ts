import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { openBullmqQueue } from '../../src/queue/bullmq-queue.js';
import { describeJobQueueContract, type ContractFixture } from './job-queue-contract.js';
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

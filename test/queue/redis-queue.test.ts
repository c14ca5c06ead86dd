import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { openRedisQueue } from '../../src/queue/redis-queue.js';
import type { JobQueue } from '../../src/queue/types.js';
import { describeJobQueueContract } from './job-queue-contract.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const BACKOFF = { baseMs: 1_000, maxMs: 60_000 };

/** One real redis-server for the file; each test gets a fresh key prefix and a flushed server. */
let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => server?.stop());

describeJobQueueContract('BullMQ/Redis', async () => {
  let now = 1_700_000_000_000;
  const queue: JobQueue = await openRedisQueue({ url: server.url, prefix: `gf-${randomUUID()}`, now: () => now, backoff: BACKOFF });
  return {
    queue,
    clock: { advance: (ms) => void (now += ms) },
    cleanup: async () => {
      await queue.close();
      const admin = new Redis(server.url);
      await admin.flushall();
      await admin.quit();
    },
  };
});

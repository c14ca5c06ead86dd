import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { crashAndResume } from './crash-cycle.js';
import nock from 'nock';

/**
 * The kill -9 cycle of crash-points.test.ts with REDIS_URL: the job lives in BullMQ, the restarted
 * process abandons its predecessor's lease (BullMQ's lock) and resumes the job from its journal.
 * One point inside the agent and one between two publishing effects; the others are covered on
 * SQLite, and the queue is not what decides them. Each cycle gets its own Redis database.
 *
 * With REDIS_URL, Probot's throttling is clustered through Redis (Bottleneck): a process killed
 * mid-publish leaves a write slot registered that Bottleneck expires after 60 s, so the resumed
 * publish waits that long before its next write (test/README.md, "Crash cycles").
 */
const BOTTLENECK_EXPIRY_MS = 60_000;
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => redis?.stop());

describe('kill -9 at a crash point on the BullMQ queue, then a restart', () => {
  it.concurrent.each([
    ['after_tool', { pushes: 0, pulls: 0, checkRuns: 0 }, 1],
    ['before_pull_request', { pushes: 1, pulls: 0, checkRuns: 0 }, 2],
  ] as const)('at %s: one branch, one commit of the verified tree, one PR, one comment, one check run', (crashAt, atCrash, db) =>
    crashAndResume(crashAt, atCrash, { REDIS_URL: `${redis.url}/${db}` }, 60_000 + BOTTLENECK_EXPIRY_MS), 210_000);
});

// fake-github.js (through crash-cycle/serve-fixture) loads nock, which patches node:http for this whole file.
afterAll(() => nock.restore());

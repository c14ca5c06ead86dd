import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { Redis } from 'ioredis';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { waitForFakeState } from '../support/fake-github.js';
import { CRASH_SCRIPT, FAST_STOP, ISSUE, jobOver } from './crash-cycle.js';
import { startServeFixture, type ServeFixture } from './serve-fixture.js';
import { killProcessesUnder, processesUnder, within, type ServeProcess } from './serve-process.js';

describe('greenfix serve with REDIS_URL', () => {
  // fake-github.js loads nock, which patches node:http for this whole test file.
  afterAll(() => nock.restore());
  let f: ServeFixture | undefined;
  let redis: RedisServer | undefined;
  let p: ServeProcess | undefined;
  afterEach(async () => {
    p?.kill();
    if (f) killProcessesUnder(f.dir);
    await f?.close();
    await redis?.stop();
  });

  it('runs the job on the BullMQ queue, shares GitHub throttling through Redis, and exits 0 on SIGTERM', async () => {
    redis = await startRedisServer();
    f = await startServeFixture({ files: BUGGY_REPO, script: CRASH_SCRIPT, config: 'verify: bash test.sh\n' });
    p = f.spawn({ ...FAST_STOP, REDIS_URL: redis.url });
    expect((await f.label(await within(p.url, 30_000, 'start'), ISSUE, 'delivery-1')).status).toBe(200);
    await waitForFakeState(f.state, jobOver, 60_000);
    expect(f.state.pulls).toHaveLength(1);
    const client = new Redis(redis.url);
    try {
      const [id] = await client.keys('{greenfix}:gf:job:*').then((keys) => keys.map((k) => k.split(':').pop()!));
      // The worker completes the job just after its last GitHub write: record first, then BullMQ.
      const finished = () => client.hget(`{greenfix}:jobs:${id}`, 'finishedOn');
      const deadline = Date.now() + 20_000;
      while ((await finished()) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await finished()).not.toBeNull(); // BullMQ dispatched it and saw it finish
      expect(await client.hget(`{greenfix}:gf:job:${id}`, 'state')).toBe('succeeded'); // greenfix's record
      expect((await client.keys('b_*')).length).toBeGreaterThan(0); // Probot's limiter state (Bottleneck)
    } finally {
      client.disconnect();
    }
    p.child.kill('SIGTERM');
    // Probot never closes its throttling Redis client; the process must end anyway.
    expect(await within(p.exited, 20_000, 'shutdown')).toEqual({ code: 0, signal: null });
    expect(processesUnder(f.dir)).toEqual([]);
  }, 120_000);
});

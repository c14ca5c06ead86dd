import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { openBullmqQueue } from '../../src/queue/bullmq-queue.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startHarness, turn, waitFor, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const MARK = 'greenfix-redis-restart-4c1e';
const SCRIPT = [
  turn(['run', { command: `sleep 3 # ${MARK}` }]),
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'add() adds.' }]),
];

describe('the app on the Redis queue', () => {
  let h: Harness | undefined;
  let redis: RedisServer | undefined;
  afterEach(async () => {
    await h?.close();
    await redis?.stop();
  });
  afterAll(() => nock.restore());

  it('finishes a job with one PR when Redis restarts while the job runs', async () => {
    redis = await startRedisServer();
    const queue = await openBullmqQueue({ url: redis.url, prefix: '{restart-test}' });
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, queue, state: { config: 'verify: bash test.sh\n' } });
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    const [job] = await h.queue.listBySubject('1296269#7');
    await waitFor(() => h!.state.comments.some((c) => c.body.includes('greenfix:status')), 'the job to start');
    await redis.restart(); // AOF: the job, its lease and the dedupe record come back
    await h.settle();
    expect(await h.queue.get(job!.id)).toMatchObject({ state: 'succeeded' });
    expect(h.state.pulls).toHaveLength(1);
    expect(h.remoteTree('greenfix/issue-7')).not.toBeNull();
    expect(h.state.comments.filter((c) => c.body.includes('greenfix:status'))).toHaveLength(1);
    // The same delivery after the restart is still known: no second job.
    await h.send('issues', labeled(h), 'delivery-1');
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(1);
  }, 60_000);
});

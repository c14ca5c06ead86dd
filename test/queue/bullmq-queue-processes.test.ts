import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openBullmqQueue } from '../../src/queue/bullmq-queue.js';
import type { JobQueue } from '../../src/queue/types.js';
import { raceProcesses } from './claim-race.js';
import { jobRequest } from './job-requests.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

const QUEUE_JS = resolve('dist/src/queue/bullmq-queue.js');

/** Two real OS processes claim from one BullMQ queue at the same moment. */
describe('BullMQ queue shared by processes', () => {
  let server: RedisServer;
  let dir: string;
  let prefix: string;
  let queue: JobQueue;
  beforeAll(async () => {
    if (!existsSync(QUEUE_JS)) throw new Error(`${QUEUE_JS} is missing: run npm run build first`);
    server = await startRedisServer();
  });
  afterAll(async () => server?.stop());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'greenfix-bullmq-race-'));
    prefix = `{gf-${randomUUID()}}`;
    queue = await openBullmqQueue({ url: server.url, prefix });
  });
  afterEach(async () => {
    await queue.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const race = (mode: 'once' | 'drain' | 'reserve') => raceProcesses({ queueJs: QUEUE_JS, kind: 'bullmq', target: `${server.url} ${prefix}`, dir }, mode);

  it('exactly one of two racing processes gets the one job', async () => {
    const { job } = await queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const [a, b] = await race('once');
    expect([...a!, ...b!]).toEqual([job.id]);
    expect(await queue.get(job.id)).toMatchObject({ state: 'running', attempts: 1 });
  });

  it('two processes draining 300 jobs take each exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push((await queue.enqueue(jobRequest(i, 1), { deliveryId: `d${i}` })).job.id);
    const [a, b] = await race('drain');
    expect([...a!, ...b!].sort()).toEqual([...ids].sort());
    expect(await queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 300, failed: 0, cancelled: 0 });
  });

  it('two processes reserving against one remaining budget at the same moment: one fits, the other does not', async () => {
    const ids = [];
    for (let i = 1; i <= 2; i++) ids.push((await queue.enqueue(jobRequest(i, 1), { deliveryId: `d${i}` })).job.id);
    const [a, b] = await race('reserve');
    const answers = [...a!, ...b!].map((line) => line.split(':'));
    expect(answers.map(([id]) => id).sort()).toEqual([...ids].sort());
    expect(answers.map(([, verdict]) => verdict).sort()).toEqual(['ok', 'over']);
  });
});

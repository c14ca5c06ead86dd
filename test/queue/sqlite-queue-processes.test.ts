import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { raceProcesses } from './claim-race.js';
import { jobRequest } from './job-requests.js';
import { sqliteFixture, type SqliteFixture } from './sqlite-fixture.js';

/** The compiled queue (`npm test` builds first; locally run `npm run build`). */
const QUEUE_JS = resolve('dist/src/queue/sqlite-queue.js');

/** Two real OS processes claim from one database file at the same moment. */
describe('SQLite queue shared by processes', () => {
  let f: SqliteFixture;
  beforeAll(() => {
    if (!existsSync(QUEUE_JS)) throw new Error(`${QUEUE_JS} is missing: run npm run build first`);
  });
  beforeEach(() => (f = sqliteFixture()));
  afterEach(async () => f.cleanup());

  const race = (mode: 'once' | 'drain' | 'reserve') => raceProcesses({ queueJs: QUEUE_JS, kind: 'sqlite', target: f.path, dir: f.dir }, mode);

  it('exactly one of two racing processes gets the one job', async () => {
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const [a, b] = await race('once');
    expect([...a!, ...b!]).toEqual([job.id]);
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'running', attempts: 1 });
  });

  it('two processes draining 300 jobs take each exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push((await f.queue.enqueue(jobRequest(i, 1), { deliveryId: `d${i}` })).job.id);
    const [a, b] = await race('drain');
    const taken = [...a!, ...b!];
    expect(taken.sort()).toEqual([...ids].sort());
    expect(await f.queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 300, failed: 0, cancelled: 0 });
  });

  it('two processes reserving against one remaining budget at the same moment: one fits, the other does not', async () => {
    const ids = [];
    for (let i = 1; i <= 2; i++) ids.push((await f.queue.enqueue(jobRequest(i, 1), { deliveryId: `d${i}` })).job.id);
    const [a, b] = await race('reserve');
    const answers = [...a!, ...b!].map((line) => line.split(':'));
    expect(answers.map(([id]) => id).sort()).toEqual([...ids].sort());
    expect(answers.map(([, verdict]) => verdict).sort()).toEqual(['ok', 'over']);
  });
});

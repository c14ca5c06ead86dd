import { afterAll, describe, expect, it } from '@jest/globals';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { waitForFakeState } from '../support/fake-github.js';
import { until } from '../support/processes.js';
import { closeAll, CRASH_SCRIPT, FAST_STOP, ISSUE, jobOver } from './crash-cycle.js';
import { startServeFixture } from './serve-fixture.js';
import { logRecords, within, type ServeProcess } from './serve-process.js';

/**
 * The SQLite queue answers a delivery once its commit is written, before the disk sync. A power
 * cut in between takes the commit, never the answer GitHub got: here the database files are put
 * back as the disk had them before the delivery, after a kill -9. The next start compares GitHub's
 * delivery log with what the queue knows, and asks GitHub to send the lost delivery again.
 */
describe('a delivery answered, then lost in a power cut', () => {
  it('is found in GitHub\'s delivery log at the next start, sent again, and fixed; a clean restart asks for nothing', async () => {
    const f = await startServeFixture({ files: BUGGY_REPO, script: CRASH_SCRIPT, config: 'verify: bash test.sh\n' });
    const db = join(f.dir, 'db', 'greenfix.db');
    const processes: ServeProcess[] = [];
    const start = (env: Record<string, string> = {}) => {
      const p = f.spawn({ ...env, ...FAST_STOP });
      processes.push(p);
      return p;
    };
    const stop = async (p: ServeProcess) => {
      p.child.kill('SIGTERM');
      expect(await within(p.exited, 20_000, 'graceful shutdown')).toEqual({ code: 0, signal: null });
    };
    try {
      // A receiver answers a delivery greenfix ignores and stops: the disk has that much (the
      // database and its write-ahead log, synced).
      const first = start({ GREENFIX_ROLE: 'receiver' });
      expect((await f.label(await within(first.url, 30_000, 'first start'), ISSUE, 'delivery-ignored', 'documentation')).status).toBe(200);
      await stop(first);
      const onDisk = [db, `${db}-wal`].filter((file) => existsSync(file));
      for (const file of onDisk) copyFileSync(file, `${file}.on-disk`);

      // The next one answers the fix's delivery; then the power goes before its commit is synced.
      const second = start({ GREENFIX_ROLE: 'receiver' });
      expect((await f.label(await within(second.url, 30_000, 'second start'), ISSUE, 'delivery-lost')).status).toBe(200);
      second.child.kill('SIGKILL');
      await second.exited;
      for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
      for (const file of onDisk) copyFileSync(`${file}.on-disk`, file);

      // The third start reads GitHub's log, asks for the lost delivery again, and it comes.
      const third = start();
      f.state.onRedeliver = (delivery) => void third.url.then((url) => f.label(url, ISSUE, delivery.guid));
      await waitForFakeState(f.state, jobOver, 60_000, (s) => `${s.requests.slice(-8).join(', ')}\n${third.stdout().slice(-4000)}`);
      const lostAttempt = f.state.deliveries.find((d) => d.guid === 'delivery-lost')!;
      expect(f.state.redeliveries).toEqual([lostAttempt.id]);
      expect(logRecords(third.stdout())).toContainEqual(expect.objectContaining({ lost: 1, redelivered: 1, deliveries: ['delivery-lost'] }));
      expect(f.state.pulls).toHaveLength(1);
      await stop(third);

      // A clean restart finds nothing missing (the redelivered attempt is the job's now).
      const fourth = start();
      await within(fourth.url, 30_000, 'fourth start');
      await until(() => logRecords(fourth.stdout()).some((r) => r['msg'] === 'GitHub\'s delivery log checked: no answered delivery is missing'), 'the fourth start to check the log', 20_000);
      expect(f.state.redeliveries).toHaveLength(1);
      await stop(fourth);
    } finally {
      await closeAll(f, processes);
    }
  }, 120_000);
});

// fake-github.js (through serve-fixture) loads nock, which patches node:http for this whole file.
afterAll(() => nock.restore());

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { join } from 'node:path';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { CRASH_SCRIPT, FAST_STOP, ISSUE, jobOver, statusComments } from './crash-cycle.js';
import { startServeFixture, type ServeFixture } from './serve-fixture.js';
import { killProcessesUnder, within, type ServeProcess } from './serve-process.js';

// Every reply of the crash script reports 100,000 prompt and 1,000 completion tokens at $1 / $10 per
// million: $0.11 a reply, five replies $0.55.
const usage = { prompt: 100_000, completion: 1_000 };
const SCRIPT = { turns: CRASH_SCRIPT.turns.map((t) => ({ ...t, usage })) };

/**
 * kill -9 of a real `greenfix serve` after the job's work and final report, just before the queue
 * call that ends the job and records its spend in one transaction; a second process resumes the
 * job. The spend is in the store once: $0.55, not $0 (lost) and not $1.10 (counted twice).
 */
describe('spend across a crash at the job end', () => {
  let f: ServeFixture | undefined;
  const processes: ServeProcess[] = [];
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill();
      await p.exited;
    }
    if (f) {
      killProcessesUnder(f.dir);
      await f.close();
    }
  });

  it.each(['before_job_end', 'after_job_end'])('at %s: counted once', async (point) => {
    f = await startServeFixture({ files: BUGGY_REPO, script: SCRIPT, config: 'verify: bash test.sh\n' });
    const prices = JSON.stringify({ [f.env.GREENFIX_MODEL!]: { input: 1, output: 10 } });
    const first = f.spawn({ GREENFIX_CRASH_AT: point, GREENFIX_PRICES: prices, ...FAST_STOP });
    processes.push(first);
    await f.label(await within(first.url, 30_000, 'first start'), ISSUE, 'delivery-1').catch(() => undefined);
    expect(await within(first.exited, 90_000, `crash at ${point}`)).toEqual({ code: null, signal: 'SIGKILL' });
    // It died after the final report: the job's work is over, its end (and spend) maybe not recorded.
    expect(jobOver(f.state)).toBe(true);

    const db = join(f.dir, 'db', 'greenfix.db');
    const spentNow = async () => {
      const q = openSqliteQueue({ path: db });
      try {
        return { spent: await q.spent('1296269', 0), counts: await q.counts() };
      } finally {
        await q.close();
      }
    };
    // Before the job end nothing is recorded yet; after it, all of it is.
    expect((await spentNow()).spent).toBeCloseTo(point === 'before_job_end' ? 0 : 0.55, 10);
    const second = f.spawn({ GREENFIX_PRICES: prices, ...FAST_STOP });
    processes.push(second);
    await within(second.url, 30_000, 'second start');
    // The resumed job (before_job_end) or nothing (after_job_end) ends it; then nothing runs.
    const deadline = Date.now() + 60_000;
    let seen = await spentNow();
    while (seen.counts.running + seen.counts.queued > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await spentNow();
    }
    expect(seen.counts).toMatchObject({ running: 0, queued: 0, succeeded: 1 });
    expect(seen.spent).toBeCloseTo(0.55, 10);
    expect(statusComments(f.state)).toHaveLength(1);
    expect(statusComments(f.state)[0]!.body).toContain('This fix cost $0.55.');
    second.child.kill('SIGTERM');
    expect(await within(second.exited, 20_000, 'graceful shutdown')).toEqual({ code: 0, signal: null });
  }, 180_000);
});

// nock (loaded by what this file imports) patches node:http, which outlives this file's module registry.
afterAll(() => nock.restore());

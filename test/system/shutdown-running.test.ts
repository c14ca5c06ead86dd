import { watch } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO, branches } from '../cli/helpers.js';
import { waitForFakeState } from '../support/fake-github.js';
import { BRANCH, FAST_STOP, ISSUE, jobOver, statusComments } from './crash-cycle.js';
import { startServeFixture, type ServeFixture } from './serve-fixture.js';
import { killProcessesUnder, logRecords, processesUnder, within, type ServeProcess } from './serve-process.js';

/** A distinctive duration, so the test finds exactly its own sandboxed sleep in /proc. */
const SLEEP = 'sleep 30.123';
/**
 * The first turn runs a long command. It says "started" only once the sleep has exec'd (seen in
 * the sandbox's /proc), so the output file's change tells the test the sleep is running. The
 * resumed run gets that call answered ("outcome unknown" or "cancelled"), and the scripted model
 * goes on by turn number with the fix.
 */
const SCRIPT = {
  turns: [
    { tool_calls: [{ name: 'run', arguments: { command: `${SLEEP} & until grep -qs 30.123 /proc/$!/cmdline; do :; done; echo started; wait` } }] },
    { tool_calls: [{ name: 'edit_file', arguments: { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' } }] },
    { tool_calls: [{ name: 'run_tests', arguments: {} }] },
    { tool_calls: [{ name: 'finish', arguments: { summary: 'add() subtracted; it adds now.' } }] },
  ],
};

/**
 * Resolves with `check()`'s value once it is not null: checked now, whenever a file under `dir`
 * that `relevant` accepts changes, and every 250 ms, because a recursive watch can miss the first
 * file written in a directory created a moment earlier (Linux adds the inner watch afterwards).
 */
function whenUnder<T>(dir: string, relevant: (file: string) => boolean, check: () => T | null, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, { recursive: true });
    const timer = setTimeout(() => finish(new Error(`not within ${timeoutMs} ms`)), timeoutMs);
    const poll = setInterval(() => test(), 250);
    const finish = (error: Error | null, value?: T) => {
      clearTimeout(timer);
      clearInterval(poll);
      watcher.close();
      if (error) reject(error);
      else resolve(value as T);
    };
    const test = () => {
      const value = check();
      if (value !== null) finish(null, value);
    };
    watcher.on('change', (_event, file) => {
      if (relevant(String(file))) test();
    });
    // Node's recursive watch on Linux scans each new directory; one renamed or removed before the
    // scan (the mirror's `.tmp` clone, a job's scratch) is an ENOENT 'error', not a failure: the poll goes on.
    watcher.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') finish(error);
    });
    test();
  });
}

describe('SIGTERM while a job runs a long sandboxed command', () => {
  // fake-github.js loads nock, which patches node:http for this whole test file.
  afterAll(() => nock.restore());
  let fixture: ServeFixture | undefined;
  const processes: ServeProcess[] = [];

  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill();
      await p.exited;
    }
    if (fixture) killProcessesUnder(fixture.dir);
    await fixture?.close();
    fixture = undefined;
  });

  it('exits 0 after the grace period, kills the command, releases the job; a restart finishes it (one PR)', async () => {
    const f = (fixture = await startServeFixture({ files: BUGGY_REPO, script: SCRIPT, config: 'verify: bash test.sh\n' }));
    const first = f.spawn(FAST_STOP);
    processes.push(first);
    const url = await within(first.url, 30_000, 'first start');
    const commandOutput = (file: string) => /\/scratch\/run-\d+\.log$/.test(file);
    const sleeping = whenUnder(f.env.GREENFIX_WORKDIR!, commandOutput, () => processesUnder(f.dir).find((p) => p.what.startsWith(SLEEP)) ?? null, 40_000);
    expect((await f.label(url, ISSUE, 'delivery-1')).status).toBe(200);
    const sleep = await sleeping;

    first.child.kill('SIGTERM');
    // 1 s of grace, then the abort: far less than the sleep's 30 s.
    expect(await within(first.exited, 15_000, 'shutdown with a running job')).toEqual({ code: 0, signal: null });
    expect(logRecords(first.stdout())).toContainEqual(expect.objectContaining({ msg: 'grace period over: aborting and releasing jobs' }));
    expect(processesUnder(f.dir)).toEqual([]);
    expect(() => process.kill(sleep.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(f.state.pulls).toEqual([]);
    expect(jobOver(f.state)).toBe(false); // released, not ended: no final word on the issue

    const second = f.spawn(FAST_STOP);
    processes.push(second);
    await within(second.url, 30_000, 'second start');
    await waitForFakeState(f.state, jobOver, 60_000, (s) => `${s.requests.slice(-8).join(', ')}\n${second.stdout().slice(-4000)}`);
    expect(f.state.pulls).toHaveLength(1);
    expect(f.state.pulls[0]).toMatchObject({ head: BRANCH, base: 'main' });
    expect(statusComments(f.state)).toHaveLength(1);
    expect(statusComments(f.state)[0]!.body).toContain(`#${f.state.pulls[0]!.number}`);
    expect(branches(f.remote)).toEqual([BRANCH]);

    second.child.kill('SIGTERM');
    expect(await within(second.exited, 15_000, 'idle shutdown')).toEqual({ code: 0, signal: null });
    expect(processesUnder(f.dir)).toEqual([]);
  }, 120_000);
});

import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { BUGGY_REPO } from '../cli/helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { startServeFixture, type ServeFixture } from './serve-fixture.js';
import { killProcessesUnder, processesUnder, spawnServe, within, type ServeProcess } from './serve-process.js';
import nock from 'nock';

/** A script the processes never get to use: these tests are about starting and stopping. */
const SCRIPT = { turns: [] };
/** serve-command's default grace period: a stopping process must be gone by then. */
const GRACE_MS = 25_000;

/** Crash and restart cycles are in crash-points*.test.ts; shutdown with a job running in shutdown-running.test.ts. */
describe('greenfix serve as a real process', () => {
  let fixture: ServeFixture | undefined;
  let scratch: string | undefined;
  const processes: ServeProcess[] = [];
  const spawned = (p: ServeProcess) => (processes.push(p), p);

  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill();
      await p.exited;
    }
    for (const dir of [fixture?.dir, scratch]) if (dir) killProcessesUnder(dir);
    await fixture?.close();
    if (scratch) cleanup(scratch);
    fixture = undefined;
    scratch = undefined;
  });

  /** What the stopped processes left running under the test's dir: must be nothing. */
  const leftovers = (dir: string) => processesUnder(dir).map((p) => p.what);

  it('a second serve process on the same workdir exits 2; the first stops cleanly on SIGTERM', async () => {
    fixture = await startServeFixture({ files: BUGGY_REPO, script: SCRIPT, config: 'verify: bash test.sh\n' });
    const first = spawned(fixture.spawn());
    await within(first.url, 20_000, 'first start');
    const second = spawned(fixture.spawn());
    expect(await within(second.exited, 20_000, 'second process')).toEqual({ code: 2, signal: null });
    expect(second.stderr()).toContain(`another greenfix worker (pid ${first.child.pid})`);
    expect(second.stderr()).toContain(fixture.env.GREENFIX_WORKDIR);
    const lock = join(fixture.env.GREENFIX_WORKDIR!, 'worker.pid');
    expect(readFileSync(lock, 'utf8')).toBe(`${first.child.pid}\n`); // the refused one left the lock alone

    first.child.kill('SIGTERM');
    expect(await within(first.exited, GRACE_MS, 'graceful shutdown')).toEqual({ code: 0, signal: null });
    expect(existsSync(lock)).toBe(false);
    expect(leftovers(fixture.dir)).toEqual([]);
  }, 60_000);

  it('refuses a workdir inside a directory bound read-only into the sandbox, naming both', async () => {
    fixture = await startServeFixture({ files: BUGGY_REPO, script: SCRIPT, config: 'verify: bash test.sh\n' });
    const tools = join(fixture.dir, 'tools');
    mkdirSync(join(tools, 'greenfix'), { recursive: true });
    chmodSync(fixture.dir, 0o755);
    chmodSync(tools, 0o755);
    const workdir = join(tools, 'greenfix', 'work');
    const p = spawned(fixture.spawn({ GREENFIX_SANDBOX_RO_PATHS: tools, GREENFIX_WORKDIR: workdir }));
    expect(await within(p.exited, 20_000, 'refusal')).toEqual({ code: 2, signal: null });
    expect(p.stderr()).toContain(`GREENFIX_WORKDIR ${workdir} is inside ${tools}, which is bound read-only into the sandbox`);
    expect(p.stdout()).not.toContain('greenfix is running');
  }, 60_000);

  it('with a bad environment, exits 2 listing every problem at once', async () => {
    const home = (scratch = tempDir('greenfix-serve-env-'));
    const p = spawned(
      spawnServe({
        cwd: home,
        env: { HOME: home, APP_ID: 'one', PRIVATE_KEY: 'not a key', PORT: '99999', GREENFIX_CONCURRENCY: '0', GREENFIX_ROLE: 'everything' },
      }),
    );
    expect(await within(p.exited, 20_000, 'bad env')).toEqual({ code: 2, signal: null });
    const problems = p.stderr().split('\n').filter((line) => line.startsWith('  - '));
    const named = problems.map((line) => line.slice('  - '.length).split(':')[0]);
    expect(named.sort()).toEqual(['APP_ID', 'GREENFIX_CONCURRENCY', 'GREENFIX_ROLE', 'PORT', 'PRIVATE_KEY', 'WEBHOOK_SECRET']);
    expect(p.stderr()).toMatch(new RegExp(`has ${problems.length} problem\\(s\\)`));
    expect(p.stderr()).not.toContain('not a key');
    expect(p.stdout()).not.toContain('greenfix is running');
  }, 30_000);
});

// fake-github.js (through crash-cycle/serve-fixture) loads nock, which patches node:http for this whole file.
afterAll(() => nock.restore());

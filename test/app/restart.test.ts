import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { BUGGY_REPO, branches, cleanup, git, tempDir } from '../cli/helpers.js';
import { waitForFakeState, type FakeGitHubState } from '../support/fake-github.js';
import { startServeFixture, type ServeFixture } from './serve-fixture.js';
import { killProcessesUnder, logRecords, processesUnder, spawnServe, type ServeProcess } from './serve-process.js';

const SCRIPT = {
  turns: [
    { tool_calls: [{ name: 'edit_file', arguments: { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' } }] },
    { tool_calls: [{ name: 'run_tests', arguments: {} }] },
    { tool_calls: [{ name: 'finish', arguments: { summary: 'add() subtracted; it adds now.' } }] },
  ],
};
/**
 * Three real runs (~10 s each): mid-agent, and either side of the publish step. (after_model is
 * left out for time: there the resumed run answers the unrun edit "not started: call it again",
 * so a script replayed by turn number needs the edit twice.)
 */
const CRASH_POINTS = [['after_tool:1'], ['before_publish:1'], ['after_publish:1']];
const FIXED_LIB = 'add() { echo $(( $1 + $2 )); }\n';
const ISSUE = 7;
const BRANCH = `greenfix/issue-${ISSUE}`;
/** serve-command's SHUTDOWN_GRACE_MS: a stopping process must be gone by then. */
const GRACE_MS = 25_000;

const statusComments = (s: FakeGitHubState) => s.comments.filter((c) => c.issue === ISSUE && c.body.includes('greenfix:status'));
const jobOver = (s: FakeGitHubState) => statusComments(s).some((c) => c.body.includes('worked on this issue'));

/** `promise`, or a rejection naming `what` after `ms` (the timer never outlives the promise). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

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

  it.each(CRASH_POINTS)(
    'killed at %s and restarted: the job resumes and ends with one PR, one comment, one branch',
    async (crashAt) => {
      fixture = await startServeFixture({ files: BUGGY_REPO, script: SCRIPT, config: 'verify: bash test.sh\n' });
      const f = fixture;
      const first = spawned(f.spawn({ GREENFIX_CRASH_AT: crashAt }));
      const answer = await f.label(await within(first.url, 20_000, 'first start'), ISSUE, 'delivery-1');
      expect(answer.status).toBe(200);
      const died = await within(first.exited, 40_000, `crash at ${crashAt}`);
      expect(died).toEqual({ code: null, signal: 'SIGKILL' });
      // Where it died: nothing published before the publish step, the PR already there after it.
      expect(f.state.pulls).toHaveLength(crashAt.startsWith('after_publish') ? 1 : 0);
      expect(jobOver(f.state)).toBe(false);

      const second = spawned(f.spawn());
      await within(second.url, 20_000, 'second start');
      // Checked now and on every request the fake answers: no race with a fast second process.
      await waitForFakeState(f.state, jobOver, 40_000, (s) => `${s.requests.slice(-8).join(', ')}\n${second.stdout().slice(-4000)}`);
      expect(logRecords(second.stdout())).toContainEqual(expect.objectContaining({ msg: 'resuming jobs this worker was running when it stopped', jobs: 1 }));

      expect(f.state.pulls).toHaveLength(1);
      const pr = f.state.pulls[0]!;
      expect(pr).toMatchObject({ head: BRANCH, base: 'main', state: 'open' });
      const status = statusComments(f.state);
      expect(status).toHaveLength(1);
      expect(status[0]!.body).toContain(`#${pr.number}`);
      expect(branches(f.remote)).toEqual([BRANCH]);
      const tree = f.remoteTree(BRANCH)!;
      expect(pr.body).toContain(tree);
      expect(git(f.remote, 'show', `refs/heads/${BRANCH}:lib.sh`)).toBe(FIXED_LIB.trimEnd());
      expect(git(f.remote, 'rev-parse', `refs/heads/${BRANCH}^`)).toBe(git(f.remote, 'rev-parse', 'refs/heads/main'));
      const commit = git(f.remote, 'rev-parse', `refs/heads/${BRANCH}`);
      expect(f.state.checkRuns).toEqual([expect.objectContaining({ name: 'greenfix/verify', head_sha: commit, conclusion: 'success' })]);

      expect(processesUnder(f.dir).map((p) => p.pid)).toContain(second.child.pid); // the check sees what runs
      second.child.kill('SIGTERM');
      expect(await within(second.exited, GRACE_MS, 'graceful shutdown')).toEqual({ code: 0, signal: null });
      expect(leftovers(f.dir)).toEqual([]);
    },
    120_000,
  );

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

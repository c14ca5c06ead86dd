import { expect } from '@jest/globals';
import { join } from 'node:path';
import { openBullmqQueue } from '../../src/queue/bullmq-queue.js';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { BUGGY_REPO, branches } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { waitForFakeState, type FakeGitHubState } from '../support/fake-github.js';
import { startServeFixture, type ServeFixture, type ServeFixtureOptions } from './serve-fixture.js';
import { killProcessesUnder, logRecords, processesUnder, within, type ServeProcess } from './serve-process.js';

/**
 * The model's script for every crash point. The edit is asked for twice, like a real model that
 * is told its call did not happen: a crash at after_model or before_tool leaves the first edit
 * unrun (answered "not started" / "outcome unknown" on resume), and the scripted model replays by
 * turn number, so the second edit is the one that applies. When the first edit did run, the second
 * finds nothing to replace and fails harmlessly. Either way the tree that is tested is the same.
 * The tests are run twice for the same reason: a crash while they run (a status-comment write
 * lands there on a slow machine) leaves their outcome unknown, and `finish` needs a verified tree.
 */
export const CRASH_SCRIPT = {
  turns: [
    { tool_calls: [{ name: 'edit_file', arguments: { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' } }] },
    { tool_calls: [{ name: 'edit_file', arguments: { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' } }] },
    { tool_calls: [{ name: 'run_tests', arguments: {} }] },
    { tool_calls: [{ name: 'run_tests', arguments: {} }] },
    { tool_calls: [{ name: 'finish', arguments: { summary: 'add() subtracted; it adds now.' } }] },
  ],
};
export const ISSUE = 7;
export const BRANCH = `greenfix/issue-${ISSUE}`;
const FIXED_LIB = 'add() { echo $(( $1 + $2 )); }';
/**
 * Not one of greenfix's crash points: the test kills the first process while its push is in
 * flight (the remote holds the request), and that push never reaches the remote. The resumed job
 * cannot know whether it did, pushes again, and the branch gets the commit once.
 */
export const MID_PUSH = 'mid_push';
/** serve-command's grace period, shortened: these processes run no job when they are stopped. */
export const FAST_STOP = { GREENFIX_SHUTDOWN_GRACE_SECONDS: '1' };

/** What GitHub and the remote hold when the process dies (unset: not fixed at that point). */
export interface AtCrash {
  pushes?: number;
  pulls?: number;
  checkRuns?: number;
  comments?: number;
}

export const statusComments = (s: FakeGitHubState) => s.comments.filter((c) => c.issue === ISSUE && c.body.includes('greenfix:status'));
export const jobOver = (s: FakeGitHubState) => statusComments(s).some((c) => c.body.includes('worked on this issue'));
/**
 * Pushes that moved the remote's branch (a resumed push of the same commit sends nothing). A push
 * cut off by the kill moved nothing, unless it got as far as the ref update: then the resumed
 * push finds the branch there and sends nothing.
 */
export const pushes = (f: ServeFixture) => f.gitRequests.filter((r) => r.movedRefs === true).length;
const posts = (s: FakeGitHubState, path: RegExp) => s.requests.filter((r) => r.startsWith('POST ') && path.test(r.slice(5))).length;

function snapshot(f: ServeFixture): Required<AtCrash> {
  return { pushes: pushes(f), pulls: f.state.pulls.length, checkRuns: f.state.checkRuns.length, comments: statusComments(f.state).length };
}

/**
 * One real crash/restart cycle: a `greenfix serve` process SIGKILLed at `crashAt` mid-job, a
 * second one on the same workdir resuming it; then what users see is checked: one branch with one
 * commit of the verified tree, one PR, one status comment, one check run, and no create or push
 * done twice. Cleans up after itself (processes by pid, temp dir), pass or fail. `env` is given to
 * both processes (REDIS_URL: the same cycle on the BullMQ queue); `resumeWithinMs` bounds the
 * second process's run.
 */
export async function crashAndResume(crashAt: string, atCrash: AtCrash, env: Record<string, string> = {}, resumeWithinMs = 60_000): Promise<void> {
  const processes: ServeProcess[] = [];
  const f = await startServeFixture({ files: BUGGY_REPO, script: CRASH_SCRIPT, config: 'verify: bash test.sh\n', ...(crashAt === MID_PUSH ? { beforeGitRequest: killFirstOnPush(processes) } : {}) });
  try {
    const first = f.spawn({ ...env, ...(crashAt === MID_PUSH ? {} : { GREENFIX_CRASH_AT: crashAt }), ...FAST_STOP });
    processes.push(first);
    // The worker is woken before the webhook is answered, so an early crash point (the first
    // comment write) can kill the process before it replies: the job is recorded by then. 202 is
    // the webhook middleware's "still working" answer on a loaded machine.
    const answer = await f.label(await within(first.url, 30_000, 'first start'), ISSUE, 'delivery-1').then((a) => a.status, () => 'cut by the kill');
    expect(await within(first.exited, 60_000, `crash at ${crashAt}`)).toEqual({ code: null, signal: 'SIGKILL' });
    expect([200, 202, 'cut by the kill']).toContain(answer);
    // Where it died: the crash point sits where it says, between the effects around it.
    expect(snapshot(f)).toMatchObject(atCrash);
    expect(jobOver(f.state)).toBe(false);

    const second = f.spawn({ ...env, ...FAST_STOP });
    processes.push(second);
    await within(second.url, 30_000, 'second start');
    await waitForFakeState(f.state, jobOver, resumeWithinMs, (s) => `${s.requests.slice(-8).join(', ')}\n${second.stdout().slice(-4000)}`);
    expect(logRecords(second.stdout())).toContainEqual(expect.objectContaining({ msg: 'resuming jobs this worker was running when it stopped', jobs: 1 }));
    second.child.kill('SIGTERM');
    expect(await within(second.exited, 20_000, 'graceful shutdown')).toEqual({ code: 0, signal: null });
    expect(processesUnder(f.dir)).toEqual([]);
    try {
      expectOneOfEach(f);
      await expectOnePullRequestRecord(f, env);
    } catch (error) {
      // What the job said and did, for a failure that only shows on a loaded machine.
      const status = statusComments(f.state).at(-1)?.body ?? '(no status comment)';
      const gitRequests = f.gitRequests.map((r) => `${r.method} ${r.path}?${r.query} ${r.status}${r.movedRefs === undefined ? '' : r.movedRefs ? ' moved refs' : ' moved nothing'}`).join('\n');
      throw Object.assign(error as Error, { message: `${(error as Error).message}\n\nstatus comment:\n${status}\n\ngit requests:\n${gitRequests}\n\nsecond process:\n${second.stdout().slice(-6000)}` });
    }
  } finally {
    await closeAll(f, processes);
  }
}

/** Kills the fixture's serve processes and whatever they left running, then closes the fixture (pass or fail). */
export async function closeAll(f: ServeFixture, processes: readonly ServeProcess[]): Promise<void> {
  for (const p of processes) {
    p.kill();
    await p.exited;
  }
  killProcessesUnder(f.dir);
  await f.close();
}

/** The remote's hook for MID_PUSH: the first push kills the first process, waits for it to die, and fails. */
function killFirstOnPush(processes: readonly ServeProcess[]): NonNullable<ServeFixtureOptions['beforeGitRequest']> {
  let killed = false;
  return async ({ method, path }) => {
    const first = processes[0];
    if (killed || !first || method !== 'POST' || !path.endsWith('/git-receive-pack')) return;
    killed = true;
    first.child.kill('SIGKILL');
    await first.exited;
    throw new Error('greenfix was killed mid-push: this push never reaches the remote');
  };
}

/** The store the processes shared recorded the one PR once (a resumed publish finds it again, records nothing new). */
async function expectOnePullRequestRecord(f: ServeFixture, env: Record<string, string>): Promise<void> {
  const queue = env['REDIS_URL'] ? await openBullmqQueue({ url: env['REDIS_URL'] }) : openSqliteQueue({ path: join(f.dir, 'db', 'greenfix.db') });
  try {
    const { repos } = await queue.stats();
    expect(repos.map((r) => [r.repo, r.opened, r.merged])).toEqual([[`${f.state.owner}/${f.state.repo}`, 1, 0]]);
  } finally {
    await queue.close();
  }
}

function expectOneOfEach(f: ServeFixture): void {
  expect(branches(f.remote)).toEqual([BRANCH]);
  const commit = git(f.remote, 'rev-parse', `refs/heads/${BRANCH}`);
  expect(git(f.remote, 'rev-parse', `${commit}^`)).toBe(git(f.remote, 'rev-parse', 'refs/heads/main'));
  expect(git(f.remote, 'show', `${commit}:lib.sh`)).toBe(FIXED_LIB);
  expect(f.state.pulls).toHaveLength(1);
  const pr = f.state.pulls[0]!;
  expect(pr).toMatchObject({ head: BRANCH, base: 'main', state: 'open' });
  expect(pr.body).toContain(f.remoteTree(BRANCH)!); // the committed tree is the verified one
  const status = statusComments(f.state);
  expect(status).toHaveLength(1);
  expect(status[0]!.body).toContain(`#${pr.number}`);
  expect(f.state.checkRuns).toEqual([expect.objectContaining({ name: 'greenfix/verify', head_sha: commit, conclusion: 'success' })]);
  // No step with effects repeated: the branch pushed once, each create sent once (a resumed
  // publish reads the PR of the branch before it would create one).
  expect({
    comments: posts(f.state, new RegExp(`/issues/${ISSUE}/comments$`)),
    pulls: posts(f.state, /\/pulls$/),
    checkRuns: posts(f.state, /\/check-runs$/),
    pushes: pushes(f),
  }).toEqual({ comments: 1, pulls: 1, checkRuns: 1, pushes: 1 });
}

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { BUGGY_REPO } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { secondaryRateLimit } from '../support/fake-github.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const SCRIPT = [
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'add() adds.' }]),
];
const CONFIG = 'verify: bash test.sh\n';
const COMMENTS = /^\/repos\/octo-org\/widgets\/issues\/7\/comments$/;
const PULLS = /^\/repos\/octo-org\/widgets\/pulls$/;
const CHECK_RUNS = /^\/repos\/octo-org\/widgets\/check-runs$/;

/** How many times `method` was sent to a path matching `path`. */
function sent(h: Harness, method: string, path: RegExp): number {
  return h.state.requests.filter((r) => r.startsWith(`${method} `) && path.test(r.slice(method.length + 1))).length;
}

/** Exactly one of everything a fix makes: status comment, PR, check run, branch, commit, push. */
async function expectOneOfEach(h: Harness): Promise<void> {
  expect(h.state.failures.every((f) => f.times === 0)).toBe(true);
  expect(h.state.comments.filter((c) => c.body.includes('greenfix:status'))).toHaveLength(1);
  expect(h.state.pulls).toHaveLength(1);
  expect(h.state.checkRuns).toHaveLength(1);
  expect(h.state.checkRuns[0]).toMatchObject({ name: 'greenfix/verify', conclusion: 'success' });
  expect(h.state.comments[0]!.body).toContain(`#${h.state.pulls[0]!.number}`);
  expect(git(h.remote, 'for-each-ref', '--format=%(refname)', 'refs/heads/greenfix')).toBe('refs/heads/greenfix/issue-7');
  expect(git(h.remote, 'rev-list', '--count', 'main..greenfix/issue-7')).toBe('1');
  expect(h.gitRequests.filter((r) => r.method === 'POST' && r.path.endsWith('/git-receive-pack'))).toHaveLength(1);
  const jobs = await h.queue.listBySubject('1296269#7');
  expect(jobs).toHaveLength(1);
  expect(jobs[0]).toMatchObject({ state: 'succeeded', attempts: 1, result: { status: 'published' } });
}

describe('when GitHub rate-limits or fails the creates', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  afterAll(() => nock.restore());

  it('re-reads after secondary rate limits, 429s and 5xx (done anyway) and makes nothing twice', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: CONFIG } });
    h.state.failures.push(
      secondaryRateLimit('POST', COMMENTS),
      // GitHub made it, then answered 5xx: a blind re-send would duplicate it.
      { method: 'POST', path: COMMENTS, status: 502, apply: true, times: 1 },
      { method: 'POST', path: PULLS, status: 429, apply: false, times: 1, headers: { 'retry-after': '0' } },
      { method: 'POST', path: PULLS, status: 500, apply: true, times: 1 },
      { method: 'POST', path: CHECK_RUNS, status: 504, apply: true, times: 1 },
    );
    await h.send('issues', labeled(h));
    await h.settle();

    await expectOneOfEach(h);
    // The rejected creates were sent again (after a re-read); the ones GitHub did were not.
    expect(sent(h, 'POST', COMMENTS)).toBe(2);
    expect(sent(h, 'POST', PULLS)).toBe(2);
    expect(sent(h, 'POST', CHECK_RUNS)).toBe(1);
  });

  it("makes nothing twice under Probot's own throttling (secondary limits not re-sent by it, primary ones are)", async () => {
    // ProbotOctokit as deployed; only the primary limit's wait is shortened (its reset is now).
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: CONFIG }, Octokit: ProbotOctokit });
    const reset = String(Math.floor(Date.now() / 1000));
    h.state.failures.push(
      secondaryRateLimit('POST', COMMENTS),
      { method: 'POST', path: PULLS, status: 403, apply: false, times: 1, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, body: { message: 'API rate limit exceeded for installation ID 2.' } },
      { ...secondaryRateLimit('POST', CHECK_RUNS), status: 429 },
    );
    await h.send('issues', labeled(h));
    await h.settle();

    await expectOneOfEach(h);
    expect(sent(h, 'POST', COMMENTS)).toBe(2);
    expect(sent(h, 'POST', PULLS)).toBe(2);
    expect(sent(h, 'POST', CHECK_RUNS)).toBe(2);
  });
});

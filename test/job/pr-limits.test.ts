import { defaultRepoConfig, type RepoConfig } from '../../src/config/repo-config.js';
import type { PullRequestInfo } from '../../src/github/types.js';
import { OPEN_PRS_RECHECK_MS, minuteAfter, prLimitWait, type PrLimitInput } from '../../src/job/pr-limits.js';
import { jobRequest } from '../queue/job-requests.js';

const NOW = Date.parse('2026-12-01T14:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const openPr = (number: number, headRef: string): PullRequestInfo => ({
  number, url: `https://github.com/octo/repo-1/pull/${number}`, state: 'open', draft: false, title: 't', body: '', headRef, headSha: 'a'.repeat(40), headRepoFullName: 'octo/repo-1', baseRef: 'main', author: 'greenfix[bot]',
});

/** The check against recorded fakes of GitHub's open PRs and the queue's records; counts the calls. */
function input(limits: RepoConfig['limits'], open: PullRequestInfo[], opened: number[], overrides: Partial<PrLimitInput> = {}) {
  const calls = { github: 0, queue: [] as number[] };
  const base: PrLimitInput = {
    request: jobRequest(1, 8),
    branch: 'greenfix/issue-8',
    config: { ...defaultRepoConfig(), limits },
    host: { openPullRequestsFrom: async (prefix) => (calls.github++, open.filter((pr) => pr.headRef.startsWith(prefix))) },
    queue: { pullRequestsOpenedSince: async (_repo, since) => (calls.queue.push(since), opened.filter((t) => t >= since)) },
    now: NOW,
    ...overrides,
  };
  return { input: base, calls };
}

describe('prLimitWait', () => {
  it('no limits: no call at all, the job goes on', async () => {
    const { input: i, calls } = input({}, [openPr(1, 'greenfix/issue-1')], [NOW - MINUTE]);
    expect(await prLimitWait(i)).toBeNull();
    expect(calls).toEqual({ github: 0, queue: [] });
  });

  it('only jobs that would open a new PR are limited: not PR jobs, not doctor, not an issue whose PR is open', async () => {
    const full = [openPr(1, 'greenfix/issue-1'), openPr(2, 'greenfix/issue-8')];
    const limits = { open_prs: 1, prs_per_hour: 1 };
    // Issue 9 has no PR yet: it would open a new one, over both limits.
    const issue9 = { request: jobRequest(1, 9), branch: 'greenfix/issue-9' };
    expect(await prLimitWait({ ...input(limits, full, [NOW]).input, ...issue9 })).not.toBeNull();
    for (const request of [jobRequest(1, 9, { kind: 'ci_fix', target: 'pull_request' }), jobRequest(1, 9, { kind: 'review', target: 'pull_request' }), jobRequest(1, 9, { kind: 'doctor' })]) {
      expect(await prLimitWait({ ...input(limits, full, [NOW]).input, ...issue9, request })).toBeNull();
    }
    // A retry of issue 8 (or its resumed job) updates greenfix/issue-8's open PR: no new PR.
    expect(await prLimitWait({ ...input(limits, full, [NOW]).input, request: jobRequest(1, 8, { kind: 'retry' }) })).toBeNull();
  });

  it('prs_per_hour: waits until the oldest PR that keeps the count at the limit is an hour old', async () => {
    const opened = [NOW - 2 * HOUR, NOW - 50 * MINUTE, NOW - 20 * MINUTE, NOW - 5 * MINUTE];
    const { input: i, calls } = input({ prs_per_hour: 2 }, [], opened);
    const wait = await prLimitWait(i);
    // Three in the last hour; two may be: once the one from 20 minutes ago is an hour old, one is left.
    expect(wait).toMatchObject({ limit: 'prs_per_hour', max: 2, count: 3, runAfter: NOW + 40 * MINUTE });
    expect(wait?.sentence).toBe('the limit of 2 new pull requests per hour (`limits.prs_per_hour`) is reached (it checks again at 2026-12-01 14:40 UTC): greenfix opened 3 in the last hour');
    expect(calls.queue).toEqual([NOW - HOUR + 1]);
    // A PR exactly an hour old no longer counts.
    expect(await prLimitWait(input({ prs_per_hour: 1 }, [], [NOW - HOUR]).input)).toBeNull();
    expect(await prLimitWait(input({ prs_per_hour: 2 }, [], [NOW - MINUTE]).input)).toBeNull();
  });

  it("open_prs: counts this repository's open greenfix PRs and checks again in 15 minutes", async () => {
    const open = [openPr(1, 'greenfix/issue-1'), openPr(2, 'greenfix/issue-2'), openPr(3, 'feature/x')];
    const wait = await prLimitWait(input({ open_prs: 2 }, open, []).input);
    expect(wait).toMatchObject({ limit: 'open_prs', max: 2, count: 2, runAfter: NOW + OPEN_PRS_RECHECK_MS });
    expect(wait?.sentence).toBe('the limit of 2 open greenfix pull requests (`limits.open_prs`) is reached (it checks again at 2026-12-01 14:15 UTC, then every 15 minutes): 2 are open');
    expect(await prLimitWait(input({ open_prs: 3 }, open, []).input)).toBeNull();
  });

  it('over both limits: the later of the two waits', async () => {
    const open = [openPr(1, 'greenfix/issue-1')];
    expect(await prLimitWait(input({ open_prs: 1, prs_per_hour: 1 }, open, [NOW - 10 * MINUTE]).input)).toMatchObject({ limit: 'prs_per_hour', runAfter: NOW + 50 * MINUTE });
    expect(await prLimitWait(input({ open_prs: 1, prs_per_hour: 1 }, open, [NOW - 55 * MINUTE]).input)).toMatchObject({ limit: 'open_prs', runAfter: NOW + 15 * MINUTE });
  });

  it('minuteAfter: rounds up to the minute, never earlier than the check', () => {
    expect(minuteAfter(Date.parse('2026-12-01T15:00:00Z'))).toBe('2026-12-01 15:00 UTC');
    expect(minuteAfter(Date.parse('2026-12-01T15:00:00.001Z'))).toBe('2026-12-01 15:01 UTC');
  });
});

import type { JobQueue } from '../../src/queue/types.js';
import type { ContractFixture } from './job-queue-contract.js';
import { jobRequest } from './job-requests.js';

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };
const HOUR = 3_600_000;

/**
 * The pull request records of JobQueue (src/queue/types.ts), for any implementation: PRs greenfix
 * opened and their merges, each recorded once, and the stats over them and the spend.
 */
export function describePullRequestContract(name: string, setup: () => Promise<ContractFixture>): void {
  describe(`JobQueue pull request contract: ${name}`, () => {
    let f: ContractFixture;
    let q: JobQueue;
    beforeEach(async () => {
      f = await setup();
      q = f.queue;
    });
    afterEach(async () => f.cleanup());

    it('records a pull request once per repository and number, and a merge once, only for a PR it recorded', async () => {
      const record = { repoKey: '1', repo: 'octo/one', number: 7, jobId: 'job-a' };
      expect(await q.recordPullRequest(record)).toBe(true);
      // A resumed job finds its PR again: nothing new.
      expect(await q.recordPullRequest({ ...record, jobId: 'job-b' })).toBe(false);
      expect(await q.recordPullRequest({ ...record, repoKey: '2', repo: 'octo/two' })).toBe(true);
      const [at, ...more] = await q.pullRequestsOpenedSince('1', 0);
      expect(Number.isFinite(at)).toBe(true);
      expect(more).toEqual([]);
      expect(await q.recordMerge('1', 7, at! + 10)).toBe(true);
      // A redelivered `closed` webhook counts once; a PR greenfix did not open is ignored.
      expect(await q.recordMerge('1', 7, at! + 20)).toBe(false);
      expect(await q.recordMerge('1', 8, at! + 20)).toBe(false);
      expect(await q.recordMerge('3', 7, at! + 20)).toBe(false);
      const { repos, total } = await q.stats();
      expect(repos).toEqual([
        { repoKey: '1', repo: 'octo/one', spendUsd: 0, opened: 1, merged: 1, costPerMergedPrUsd: null },
        { repoKey: '2', repo: 'octo/two', spendUsd: 0, opened: 1, merged: 0, costPerMergedPrUsd: null },
      ]);
      expect(total).toEqual({ spendUsd: 0, opened: 2, merged: 1, costPerMergedPrUsd: null });
      await expect(q.recordPullRequest({ ...record, number: 0 })).rejects.toBeInstanceOf(RangeError);
    });

    it('lists when the PRs of a repository were opened since a time, oldest first', async () => {
      await q.recordPullRequest({ repoKey: '1', repo: 'octo/one', number: 1, jobId: 'a' });
      const [first] = await q.pullRequestsOpenedSince('1', 0);
      await f.clock.advance(HOUR);
      await q.recordPullRequest({ repoKey: '1', repo: 'octo/one', number: 2, jobId: 'b' });
      await q.recordPullRequest({ repoKey: '2', repo: 'octo/two', number: 3, jobId: 'c' });
      const both = await q.pullRequestsOpenedSince('1', 0);
      expect(both).toHaveLength(2);
      expect(both[0]).toBe(first);
      expect(both[1]! - first!).toBeGreaterThanOrEqual(HOUR);
      expect(await q.pullRequestsOpenedSince('1', first! + 1)).toEqual([both[1]]);
      expect(await q.pullRequestsOpenedSince('9', 0)).toEqual([]);
    });

    it('stats: all spend of a repository per merged PR, per repository and in total, and in a window', async () => {
      for (let i = 1; i <= 3; i++) await q.enqueue(jobRequest(1, i), { deliveryId: `d${i}` });
      await q.enqueue(jobRequest(2, 1), { deliveryId: 'other' });
      const opened = (await q.claim(LEASE))!;
      const other = (await q.claim(LEASE))!;
      await q.recordPullRequest({ repoKey: '1', repo: 'octo/one', number: 101, jobId: opened.job.id });
      await q.complete(opened.lease, { pr: 101 }, 0.8);
      // Repository 2 spends, opens nothing: its cost per merged PR is unknown, its name comes from its job.
      await q.complete(other.lease, null, 0.3);
      await f.clock.advance(HOUR);
      const windowStart = (await q.get(opened.job.id))!.updatedAt + HOUR;
      // A failed job's spend counts too: it is what the merged PRs cost.
      const failed = (await q.claim(LEASE))!;
      await q.fail(failed.lease, { message: 'no fix', retryable: false, spendUsd: 0.4 });
      const second = (await q.claim(LEASE))!;
      await q.recordPullRequest({ repoKey: '1', repo: 'octo/one', number: 102, jobId: second.job.id });
      await q.complete(second.lease, { pr: 102 }, 0.3);
      expect(await q.recordMerge('1', 101, windowStart + 1)).toBe(true);
      expect(await q.recordMerge('1', 102, windowStart + 2)).toBe(true);
      const all = await q.stats();
      const name = `${jobRequest(2, 1).repo.owner}/${jobRequest(2, 1).repo.name}`;
      expect(all.repos.map((r) => r.repo)).toEqual(['octo/one', name].sort());
      const one = all.repos.find((r) => r.repoKey === '1')!;
      expect(one).toMatchObject({ repo: 'octo/one', opened: 2, merged: 2 });
      expect(one.spendUsd).toBeCloseTo(1.5, 10);
      expect(one.costPerMergedPrUsd).toBeCloseTo(0.75, 10);
      expect(all.repos.find((r) => r.repoKey === '2')).toMatchObject({ repo: name, opened: 0, merged: 0, costPerMergedPrUsd: null });
      expect(all.total).toMatchObject({ opened: 2, merged: 2 });
      expect(all.total.spendUsd).toBeCloseTo(1.8, 10);
      expect(all.total.costPerMergedPrUsd).toBeCloseTo(0.9, 10);
      // The last hour: the second job's PR and both merges, the failed and second jobs' spend.
      const recent = await q.stats(windowStart);
      expect(recent.repos.map((r) => r.repoKey)).toEqual(['1']);
      expect(recent.repos[0]).toMatchObject({ opened: 1, merged: 2 });
      expect(recent.repos[0]!.spendUsd).toBeCloseTo(0.7, 10);
      expect(recent.total.costPerMergedPrUsd).toBeCloseTo(0.35, 10);
      expect(await q.stats(Date.parse('2100-01-01'))).toEqual({ repos: [], total: { spendUsd: 0, opened: 0, merged: 0, costPerMergedPrUsd: null } });
    });
  });
}

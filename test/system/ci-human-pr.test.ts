import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { branches } from '../cli/helpers.js';
import { git } from '../support/git.js';
import type { Harness } from './harness.js';
import { addCheckRun, FIX_SCRIPT, type OpenedPull, openPullRequest, remoteSha, startRecorded, statusComments, workflowRunFailed } from './pull-fixtures.js';

const LOG = 'add 2 3 gave -1\n##[error]Process completed with exit code 1.';

describe('red CI on a pull request by a person', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  async function redCiOnHumanPr(config: string): Promise<{ pr: OpenedPull; requests: unknown[] }> {
    const started = await startRecorded(FIX_SCRIPT, config);
    h = started.h;
    const { requests } = started;
    const pr = openPullRequest(h, { number: 21, head: 'fix-parser', title: 'Parse negative numbers', author: 'octocat' });
    addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: LOG });
    await h.send('workflow_run', workflowRunFailed(h, pr));
    await h.settle();
    return { pr, requests };
  }

  it('is left alone by default, and the status comment says how to opt in', async () => {
    const { pr, requests } = await redCiOnHumanPr('verify: bash test.sh\n');

    expect(requests).toHaveLength(0);
    expect(remoteSha(h, 'refs/heads/fix-parser')).toBe(pr.headSha);
    expect(branches(h.remote)).toEqual([]);
    const status = statusComments(h, 21);
    expect(status).toHaveLength(1);
    expect(status[0]).toContain('greenfix did not run');
    expect(status[0]).toContain('autofix.humans');
    expect(h.state.pulls).toHaveLength(1);
  });

  it('with autofix.humans opens a greenfix PR against the person\'s branch, which stays untouched', async () => {
    const { pr, requests } = await redCiOnHumanPr('verify: bash test.sh\nautofix:\n  humans: true\n');

    expect(requests.length).toBeGreaterThan(0);
    expect(remoteSha(h, 'refs/heads/fix-parser')).toBe(pr.headSha);
    expect(branches(h.remote)).toEqual(['greenfix/pr-21']);
    const fix = remoteSha(h, 'refs/heads/greenfix/pr-21')!;
    expect(git(h.remote, 'rev-parse', `${fix}^`)).toBe(pr.headSha);
    expect(git(h.remote, 'log', '-1', '--format=%B', fix)).toContain(`Verified-tree: ${h.remoteTree('greenfix/pr-21')}`);

    expect(h.state.pulls).toHaveLength(2);
    const opened = h.state.pulls.find((p) => p.number !== 21)!;
    expect(opened).toMatchObject({ head: 'greenfix/pr-21', base: 'fix-parser', title: 'Fix CI on #21: Parse negative numbers', state: 'open' });
    expect(opened.body).not.toContain('Fixes #');
    expect(h.state.checkRuns).toContainEqual(expect.objectContaining({ name: 'greenfix/verify', head_sha: fix, conclusion: 'success' }));
    const status = statusComments(h, 21);
    expect(status).toHaveLength(1);
    expect(status[0]).toContain(`#${opened.number}`);
  });
});

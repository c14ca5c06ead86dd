import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { git } from '../support/git.js';
import type { Harness } from './harness.js';
import { FIX_SCRIPT, openPullRequest, pullRequestComment, remoteSha, shownToModel, startRecorded, statusComments } from './pull-fixtures.js';

describe('/agent retry on a greenfix pull request', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('pushes a new commit on the same branch, parent = the PR head, and updates the one PR', async () => {
    const started = await startRecorded(FIX_SCRIPT, 'verify: bash test.sh\n');
    h = started.h;
    const { requests } = started;
    const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', title: 'Fix #7: add() gives the wrong answer', author: 'greenfix[bot]' });

    const answer = await h.send('issue_comment', pullRequestComment(h, 12, '/agent retry keep the function name'));
    expect(answer.status).toBe(200);
    await h.settle();

    const head = remoteSha(h, 'refs/heads/greenfix/issue-7');
    expect(head).not.toBe(pr.headSha);
    expect(git(h.remote, 'rev-parse', `${head}^`)).toBe(pr.headSha);
    expect(git(h.remote, 'rev-list', '--count', `${pr.headSha}..${head}`)).toBe('1');
    const tree = h.remoteTree('greenfix/issue-7')!;
    expect(git(h.remote, 'log', '-1', '--format=%B', head!)).toContain(`Verified-tree: ${tree}`);
    expect(git(h.remote, 'show', `${head}:lib.sh`)).toContain('$1 + $2');
    // The PR's own work stays: the fix is on top of it.
    expect(git(h.remote, 'show', `${head}:notes-12.md`)).toBe('work in progress');

    expect(h.state.pulls).toHaveLength(1);
    const [pull] = h.state.pulls;
    expect(pull).toMatchObject({ number: 12, head: 'greenfix/issue-7', base: 'main', state: 'open' });
    expect(pull!.body).toContain(tree);
    expect(pull!.body).toContain('Fixes #7');
    expect(h.state.checkRuns).toEqual([expect.objectContaining({ name: 'greenfix/verify', head_sha: head, conclusion: 'success' })]);

    const status = statusComments(h, 12);
    expect(status).toHaveLength(1);
    expect(status[0]).toContain('#12');
    expect(shownToModel(requests)).toContain('keep the function name');
    expect(h.state.reactions).toContainEqual({ issue: 0, commentId: 9001, content: 'eyes' });
  });
});

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { git } from '../support/git.js';
import type { Harness } from './harness.js';
import { addCheckRun, FIX_SCRIPT, openPullRequest, startRecorded, workflowRunFailed } from './pull-fixtures.js';

describe('red CI on a pull request from a fork', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('answers with one polite refusal, runs nothing and pushes nothing, however often it is reported', async () => {
    const started = await startRecorded(FIX_SCRIPT, 'verify: bash test.sh\n');
    h = started.h;
    const { requests } = started;
    const pr = openPullRequest(h, { number: 21, head: 'patch-1', fork: 'mallory/widgets', author: 'mallory' });
    addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: '##[error]Process completed with exit code 1.' });
    const refsBefore = git(h.remote, 'for-each-ref', '--format=%(refname) %(objectname)');

    const first = await h.send('workflow_run', workflowRunFailed(h, pr, 1));
    const second = await h.send('workflow_run', workflowRunFailed(h, pr, 2));
    await h.settle();

    expect([first.status, second.status]).toEqual([200, 200]);
    const comments = h.state.comments.filter((c) => c.issue === 21);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/fork/i);
    expect(comments[0]!.body).toContain('greenfix only fixes CI on branches of this repository');
    expect(h.state.comments).toHaveLength(1);
    expect(await h.queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    expect(requests).toHaveLength(0);
    expect(git(h.remote, 'for-each-ref', '--format=%(refname) %(objectname)')).toBe(refsBefore);
    expect(h.state.pulls).toHaveLength(1);
    expect(h.state.checkRuns.filter((r) => r.name === 'greenfix/verify')).toHaveLength(0);
  });
});

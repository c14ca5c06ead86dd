import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { Harness } from './harness.js';
import { addCheckRun, FIX_SCRIPT, openPullRequest, remoteSha, startRecorded, statusComments, workflowRunFailed } from './pull-fixtures.js';

describe('red CI that is red on the base branch too', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('fixes nothing and says why in the status comment', async () => {
    const started = await startRecorded(FIX_SCRIPT, 'verify: bash test.sh\n');
    h = started.h;
    const { requests } = started;
    const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', author: 'greenfix[bot]' });
    addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: '##[error]Process completed with exit code 1.' });
    addCheckRun(h, { headSha: remoteSha(h, 'refs/heads/main')!, name: 'test', conclusion: 'failure' });

    await h.send('workflow_run', workflowRunFailed(h, pr));
    await h.settle();

    expect(remoteSha(h, 'refs/heads/greenfix/issue-7')).toBe(pr.headSha);
    expect(requests).toHaveLength(0);
    const status = statusComments(h, 12);
    expect(status).toHaveLength(1);
    expect(status[0]).toContain('`test` fails on `main` too');
    expect(status[0]).toContain("not this pull request's doing");
    expect(h.state.checkRuns.filter((r) => r.name === 'greenfix/verify')).toHaveLength(0);
    expect(h.state.pulls).toHaveLength(1);
  });
});

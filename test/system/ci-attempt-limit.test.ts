import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { Harness } from './harness.js';
import { addCheckRun, type OpenedPull, openPullRequest, pushToPullRequest, remoteSha, startRecorded, statusComments, workflowRunFailed } from './pull-fixtures.js';

describe('the CI fix attempt limit', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('answers the fourth failure with a neutral greenfix/verify check run and no commit', async () => {
    // The model gives up at once (an empty script): three real, unsuccessful attempts.
    const started = await startRecorded([], 'verify: bash test.sh\nautofix:\n  max_attempts: 3\n');
    h = started.h;
    const { requests } = started;
    let pr: OpenedPull = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', author: 'greenfix[bot]' });
    const redCi = async (run: number): Promise<void> => {
      addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: `attempt ${run}\n##[error]Process completed with exit code 1.` });
      await h.send('workflow_run', workflowRunFailed(h, pr, run));
      await h.settle();
    };
    for (let run = 1; run <= 3; run++) {
      await redCi(run);
      pr = pushToPullRequest(h, pr, { [`step-${run}.txt`]: `${run}\n` });
    }
    expect(requests.filter((r) => r.turn === 0)).toHaveLength(3);
    expect((await h.queue.listBySubject('1296269#12')).map((j) => j.request.kind)).toEqual(['ci_fix', 'ci_fix', 'ci_fix']);

    await redCi(4);

    expect(requests.filter((r) => r.turn === 0)).toHaveLength(3);
    expect(remoteSha(h, 'refs/heads/greenfix/issue-7')).toBe(pr.headSha);
    const ours = h.state.checkRuns.filter((r) => r.name === 'greenfix/verify');
    const onHead = ours.filter((r) => r.head_sha === pr.headSha);
    expect(onHead).toEqual([expect.objectContaining({ head_sha: pr.headSha, status: 'completed', conclusion: 'neutral' })]);
    // Each of the three attempts left its run log in a neutral check run on the commit it worked on.
    expect(ours.filter((r) => r.head_sha !== pr.headSha).map((r) => [r.conclusion, (r.output.text ?? '').startsWith('### What greenfix did')])).toEqual([
      ['neutral', true],
      ['neutral', true],
      ['neutral', true],
    ]);
    expect(onHead[0]!.output.title).toBe('CI fix attempts limit reached');
    expect(onHead[0]!.output.summary).toContain('3 times (the limit is 3, `autofix.max_attempts`)');
    const status = statusComments(h, 12);
    expect(status).toHaveLength(4);
    expect(status[3]).toContain('over to a human');
  });
});

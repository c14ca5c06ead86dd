import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, waitFor, type Harness } from './harness.js';
import { commented, labeled } from './issue-payloads.js';

const MARK = 'greenfix-cancel-test-7f3a';
const LONG = [turn(['run', { command: `sleep 120 # ${MARK}`, timeout: 300 }]), turn(['finish', { summary: 'never reached', gave_up: true }])];

function sleepers(): string {
  try {
    return execFileSync('pgrep', ['-f', MARK], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // pgrep exits 1 when nothing matches
  }
}

describe('/agent cancel', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('kills the running command and says so in the status comment', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: LONG, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h));
    await waitFor(() => sleepers() !== '', 'the job to start its command');
    const started = Date.now();
    const answer = await h.send('issue_comment', commented(h, '/agent cancel'));
    expect(answer.status).toBe(200);
    await h.settle();
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(sleepers()).toBe('');
    const [job] = await h.queue.listBySubject('1296269#7');
    expect(job?.state).toBe('cancelled');
    const status = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain('Cancelled');
    expect(h.state.pulls).toHaveLength(0);
    expect(h.state.reactions).toContainEqual(expect.objectContaining({ commentId: 555, content: 'eyes' }));
  });

  it('answers that nothing runs when nothing does', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: LONG });
    await h.send('issue_comment', commented(h, '/agent cancel'));
    await h.settle();
    expect(h.state.comments.map((c) => c.body)).toEqual([expect.stringContaining('Nothing to cancel')]);
  });
});

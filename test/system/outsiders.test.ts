import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { OUTSIDER_REPLY } from '../../src/app/refusal-answers.js';
import { DEFAULT_REFUSALS_PER_HOUR } from '../../src/app/refusal-limiter.js';
import { jobFiles } from '../../src/job/files.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { examplePayload, withInstallation } from '../support/webhook-client.js';
import { INSTALLATION, startHarness, turn, waitFor, type Harness } from './harness.js';
import { commented, labeled } from './issue-payloads.js';

const FIX = turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]);
/** The job's first command waits on a FIFO in its worktree until the test writes to it. */
const GATE = '.greenfix-test-gate';
const WAIT = turn(['run', { command: `mkfifo ${GATE} && cat ${GATE} && rm ${GATE}`, timeout: 120 }]);
const SCRIPT = [WAIT, FIX, turn(['run_tests', {}]), turn(['finish', { summary: 'add() adds now.' }])];

const user = (login: string, id: number) => ({ login, type: 'User', id });

function onIssue(payload: Record<string, unknown>, number: number, sender: { login: string; id: number }): Record<string, unknown> {
  return { ...payload, issue: { ...(payload['issue'] as object), number, user: user('alice', 50) }, sender: user(sender.login, sender.id) };
}

function closedBy(h: Harness, login: string): Record<string, unknown> {
  const payload = examplePayload('issues', 'opened');
  Object.assign(payload, {
    action: 'closed',
    repository: h.repository,
    issue: { ...payload.issue, number: 7, state: 'closed', user: user('alice', 50), pull_request: undefined },
    sender: user(login, login === 'alice' ? 50 : 1),
  });
  return withInstallation(payload, INSTALLATION);
}

const botComments = (h: Harness) => h.state.comments.filter((c) => c.user === 'greenfix[bot]');

describe('what outsiders can make greenfix do', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('20 outsiders × 5 issues of /agent frobnicate: one short reply per issue, no mention; refusals capped per repository', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: [] });
    for (let issue = 1; issue <= 5; issue++) {
      for (let i = 0; i < 20; i++) await h.send('issue_comment', onIssue(commented(h, '/agent frobnicate'), issue, { login: `outsider-${i}`, id: 100 + i }));
    }
    const replies = botComments(h);
    expect(replies.map((c) => c.issue).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const reply of replies) {
      expect(reply.body).toBe(OUTSIDER_REPLY);
      expect(reply.body).not.toMatch(/@/);
    }
    // retry on a closed issue, by an outsider: nothing more on an issue already answered.
    await h.send('issue_comment', onIssue(commented(h, '/agent retry', { issue: { ...commented(h, '').issue as object, state: 'closed' } }), 3, { login: 'outsider-x', id: 99 }));
    expect(botComments(h)).toHaveLength(5);
    // 15 more issues: the repository's refusal limit (10 an hour) stops the flood.
    for (let issue = 6; issue <= 20; issue++) await h.send('issue_comment', onIssue(commented(h, '/agent frobnicate'), issue, { login: 'outsider-0', id: 100 }));
    expect(botComments(h)).toHaveLength(DEFAULT_REFUSALS_PER_HOUR);
    expect(await h.queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
  });

  it('a collaborator still gets the help for an unknown command', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: [] });
    await h.send('issue_comment', commented(h, '/agent frobnicate'));
    expect(botComments(h).map((c) => c.body)).toEqual([expect.stringContaining("I don't know the command `/agent frobnicate`")]);
  });

  it('the author closing their own issue does not stop the job; the status comment says so', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h));
    const [job] = await h.queue.listBySubject('1296269#7');
    const gate = join(jobFiles(join(h.dir, 'work'), job!.id).worktree, GATE);
    await waitFor(() => existsSync(gate), 'the job to wait at its gate');
    h.state.closedIssues[7] = { author: 'alice', closedBy: 'alice' };
    const answer = await h.send('issues', closedBy(h, 'alice'));
    expect(answer.status).toBe(200);
    writeFileSync(gate, 'go\n');
    await h.settle();
    expect((await h.queue.get(job!.id))?.state).toBe('succeeded');
    expect(h.state.pulls).toHaveLength(1);
    const [status] = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status!.body).toContain('The issue was closed by its author while greenfix worked on it');
  });

  it('a collaborator closing the issue cancels the job', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n', roles: { octocat: 'admin', maria: 'write' } } });
    await h.send('issues', labeled(h));
    const [job] = await h.queue.listBySubject('1296269#7');
    const gate = join(jobFiles(join(h.dir, 'work'), job!.id).worktree, GATE);
    await waitFor(() => existsSync(gate), 'the job to wait at its gate');
    await h.send('issues', closedBy(h, 'maria'));
    await h.settle(); // the cancel kills the waiting command

    expect((await h.queue.get(job!.id))?.state).toBe('cancelled');
    expect(h.state.pulls).toHaveLength(0);
  });
});

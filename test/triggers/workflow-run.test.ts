import { triggerFor } from '../../src/triggers/route.js';
import { CTX } from './context.js';
import { examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

/** The example's completed run comes from a fork (head_repository 396980812 ≠ repository 283462325). */
const REPO_ID = 283462325;
const FORK_ID = 396980812;
const pr = (number: number, headRef: string, headRepo = REPO_ID) => ({
  number,
  head: { ref: headRef, sha: 'abc123', repo: { id: headRepo } },
  base: { ref: 'main', repo: { id: REPO_ID } },
});
const failed = (workflowRun: object = {}) =>
  examplePayload('workflow_run', 'completed', { workflow_run: { conclusion: 'failure', ...workflowRun } });
const sameRepo = (workflowRun: object = {}) => failed({ head_repository: { id: REPO_ID }, ...workflowRun });

describe('workflow_run triggers', () => {
  it('a failed run on a same-repo PR → a ci_fix job with the workflow run id', () => {
    const payload = sameRepo({ id: 30433642, head_sha: 'abc123', pull_requests: [pr(12, 'greenfix/issue-5')] });
    expect(triggerFor(webhookEvent('workflow_run', payload), CTX)).toMatchObject({
      type: 'job',
      authorize: false,
      request: {
        kind: 'ci_fix',
        number: 12,
        target: 'pull_request',
        ci: {
          headSha: 'abc123',
          headRef: 'greenfix/issue-5',
          checks: ['Manually triggered workflow'],
          checkRunIds: [],
          workflowRunId: 30433642,
          ownPullRequest: true,
        },
      },
    });
  });

  it('a run from a fork → a refusal; number 0 when GitHub lists no PR (the caller looks it up)', () => {
    expect(triggerFor(webhookEvent('workflow_run', failed()), CTX)).toMatchObject({ type: 'refuse', refusal: { code: 'fork', number: 0 } });
    const listed = failed({ pull_requests: [pr(8, 'patch-1', FORK_ID)] });
    expect(triggerFor(webhookEvent('workflow_run', listed), CTX)).toMatchObject({ type: 'refuse', refusal: { code: 'fork', number: 8 } });
    const deletedFork = failed({ head_repository: null });
    expect(triggerFor(webhookEvent('workflow_run', deletedFork), CTX).type).toBe('refuse');
  });

  it('the refusal says why and what to do', () => {
    const result = triggerFor(webhookEvent('workflow_run', failed()), CTX);
    expect(result.type === 'refuse' && result.refusal.message).toMatch(/fork/);
  });

  it('a same-repo run without a PR (a push build) is ignored', () => {
    expect(triggerFor(webhookEvent('workflow_run', sameRepo({ pull_requests: [] })), CTX)).toEqual({
      type: 'ignored',
      reason: 'not on a pull request of this repository',
    });
  });

  it('a nameless workflow still gets a check name', () => {
    const payload = sameRepo({ id: 77, name: '', pull_requests: [pr(1, 'fix')] });
    const result = triggerFor(webhookEvent('workflow_run', payload), CTX);
    expect(result.type === 'job' && result.request.ci?.checks).toEqual(['workflow run 77']);
  });

  it('success and requested are ignored; bots are allowed', () => {
    expect(triggerFor(webhookEvent('workflow_run', examplePayload('workflow_run', 'completed', { workflow_run: { conclusion: 'success' } })), CTX).type).toBe('ignored');
    expect(triggerFor(webhookEvent('workflow_run', examplePayload('workflow_run', 'requested')), CTX).type).toBe('ignored');
    const byBot = examplePayload('workflow_run', 'completed', {
      workflow_run: { conclusion: 'timed_out', head_repository: { id: REPO_ID }, pull_requests: [pr(2, 'greenfix/issue-2')] },
      sender: { login: 'greenfix[bot]', type: 'Bot' },
    });
    expect(triggerFor(webhookEvent('workflow_run', byBot), CTX).type).toBe('job');
  });
});

import { triggerFor } from '../../src/triggers/route.js';
import { CTX } from './context.js';
import { examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

/** The example's failed run is GitHub Actions'; a third-party CI app is the same payload with another app. */
const failed = (overrides: { check_run?: object; sender?: object } = {}) =>
  examplePayload('check_run', 'completed', {
    ...overrides,
    check_run: { app: { id: 5555, slug: 'circleci-checks' }, ...overrides.check_run },
  });

const REPO_ID = 186853002;
const pr = (number: number, headRef: string, headRepo: number, baseRepo = REPO_ID) => ({
  number,
  head: { ref: headRef, sha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821', repo: { id: headRepo } },
  base: { ref: 'master', repo: { id: baseRepo } },
});

describe('check_run triggers', () => {
  it('a failed check on a human same-repo PR → a ci_fix job, no permission check, not our own PR', () => {
    expect(triggerFor(webhookEvent('check_run', failed()), CTX)).toMatchObject({
      type: 'job',
      authorize: false,
      request: {
        kind: 'ci_fix',
        number: 2,
        target: 'pull_request',
        title: '',
        body: '',
        sender: 'circleci-checks',
        ci: {
          headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
          headRef: 'changes',
          checks: ['Octocoders-linter'],
          checkRunIds: [128620228],
          ownPullRequest: false,
        },
      },
    });
  });

  it('on greenfix’s own branch → ownPullRequest; timed_out counts as a failure', () => {
    const own = failed({ check_run: { conclusion: 'timed_out', pull_requests: [pr(7, 'greenfix/issue-3', REPO_ID)] } });
    expect(triggerFor(webhookEvent('check_run', own), CTX)).toMatchObject({ type: 'job', request: { number: 7, ci: { headRef: 'greenfix/issue-3', ownPullRequest: true } } });
  });

  it('bots are allowed: CI is the trigger, not a person', () => {
    const byBot = failed({ sender: { login: 'greenfix[bot]', type: 'Bot' } });
    expect(triggerFor(webhookEvent('check_run', byBot), CTX).type).toBe('job');
  });

  it('success, neutral and other actions are ignored', () => {
    expect(triggerFor(webhookEvent('check_run', failed({ check_run: { conclusion: 'success' } })), CTX)).toEqual({
      type: 'ignored',
      reason: 'check run concluded success',
    });
    expect(triggerFor(webhookEvent('check_run', examplePayload('check_run', 'created')), CTX).type).toBe('ignored');
    expect(triggerFor(webhookEvent('check_run', examplePayload('check_run', 'rerequested')), CTX).type).toBe('ignored');
  });

  it('greenfix’s own check runs never trigger', () => {
    const own = failed({ check_run: { app: { id: CTX.appId, slug: 'greenfix' } } });
    expect(triggerFor(webhookEvent('check_run', own), CTX)).toEqual({ type: 'ignored', reason: "greenfix's own check runs never trigger a fix" });
  });

  it('GitHub Actions check runs are left to workflow_run (one job per workflow, not per job)', () => {
    expect(triggerFor(webhookEvent('check_run', examplePayload('check_run', 'completed')), CTX)).toEqual({
      type: 'ignored',
      reason: 'GitHub Actions failures are handled through workflow_run',
    });
  });

  it('no pull request, or only another repository’s → ignored', () => {
    const reason = 'not on a pull request of this repository';
    expect(triggerFor(webhookEvent('check_run', failed({ check_run: { pull_requests: [] } })), CTX)).toEqual({ type: 'ignored', reason });
    const elsewhere = failed({ check_run: { pull_requests: [pr(3, 'x', 111, 111)] } });
    expect(triggerFor(webhookEvent('check_run', elsewhere), CTX)).toEqual({ type: 'ignored', reason });
  });

  it('picks the first same-repo PR of several', () => {
    const several = failed({ check_run: { pull_requests: [pr(3, 'x', 111, 111), pr(9, 'feature', REPO_ID)] } });
    expect(triggerFor(webhookEvent('check_run', several), CTX)).toMatchObject({ type: 'job', request: { number: 9 } });
  });

  it('a fork PR into this repository → a refusal', () => {
    const fork = failed({ check_run: { pull_requests: [pr(4, 'patch-1', 333)] } });
    expect(triggerFor(webhookEvent('check_run', fork), CTX)).toMatchObject({ type: 'refuse', refusal: { code: 'fork', number: 4, sender: 'circleci-checks' } });
  });

  it('a malformed payload is ignored', () => {
    const result = triggerFor(webhookEvent('check_run', failed({ check_run: { pull_requests: 'none' } })), CTX);
    expect(result.type === 'ignored' && result.reason).toMatch(/^malformed check_run payload: check_run\.pull_requests/);
  });
});

import { RepoConfigSchema } from '../../src/config/repo-config.js';
import type { Job } from '../../src/queue/types.js';
import { ciGuard } from '../../src/job/ci-guard.js';
import type { JobKind, JobRequest } from '../../src/triggers/types.js';
import { recordingHost } from './recording-host.js';

const HEAD = 'c'.repeat(40);
const REPO = { id: 1, owner: 'octo', name: 'widgets', cloneUrl: 'https://github.com/octo/widgets.git', defaultBranch: 'main' };
const config = (yml: unknown = {}) => RepoConfigSchema.parse(yml);

function request(kind: JobKind = 'ci_fix'): JobRequest {
  return {
    kind,
    installationId: 7,
    repo: REPO,
    number: 40,
    target: 'pull_request',
    title: 'Add totals',
    body: '',
    sender: 'greenfix[bot]',
    ...(kind === 'ci_fix' ? { ci: { headSha: HEAD, headRef: 'greenfix/issue-12', checks: ['test'], checkRunIds: [9], ownPullRequest: true } } : {}),
  };
}

/** An earlier job on the same PR: `attempts` 0 means it never started. */
function job(id: string, attempts: number, kind: JobKind = 'ci_fix'): Job {
  return {
    id,
    deliveryId: `d-${id}`,
    dedupeKey: null,
    subject: 'octo/widgets#40',
    repoKey: '1',
    request: request(kind),
    state: 'succeeded',
    attempts,
    maxAttempts: 3,
    runAfter: 0,
    createdAt: 0,
    updatedAt: 0,
    cancelReason: null,
    error: null,
    result: null,
    authorize: null,
  };
}

describe('ciGuard', () => {
  it('lets anything but a CI fix through without asking GitHub', async () => {
    const gh = recordingHost();
    for (const kind of ['issue', 'retry', 'review', 'doctor'] as const) {
      expect(await ciGuard(request(kind), 'main', config(), gh.host, [job('a', 1), job('b', 1), job('c', 1)], 'me')).toBeNull();
    }
    expect(gh.writes).toEqual([]);
  });

  it('lets a CI fix through below the attempt limit when the base is green', async () => {
    const gh = recordingHost();
    gh.failing.set(HEAD, ['test']);
    expect(await ciGuard(request(), 'main', config(), gh.host, [job('a', 1), job('b', 1)], 'me')).toBeNull();
    expect(gh.writes).toEqual([]);
  });

  it('stops at autofix.max_attempts earlier started CI fixes, with one neutral check run on the head saying so', async () => {
    const gh = recordingHost();
    const reason = await ciGuard(request(), 'main', config({ autofix: { max_attempts: 2 } }), gh.host, [job('a', 1), job('b', 2)], 'me');
    expect(reason).toBe('greenfix already tried to fix CI on #40 2 times (the limit is 2, `autofix.max_attempts`); over to a human.');
    expect(gh.checkRuns).toEqual([
      {
        name: 'greenfix/verify',
        headSha: HEAD,
        externalId: 'me:limit',
        status: 'completed',
        conclusion: 'neutral',
        output: { title: 'CI fix attempts limit reached', summary: reason },
      },
    ]);
  });

  it('counts neither this job, nor jobs that never started, nor other kinds of job towards the limit', async () => {
    const gh = recordingHost();
    const earlier = [job('me', 3), job('never', 0), job('issue', 1, 'issue'), job('retry', 2, 'retry'), job('a', 1)];
    expect(await ciGuard(request(), 'main', config({ autofix: { max_attempts: 2 } }), gh.host, earlier, 'me')).toBeNull();
    expect(gh.checkRuns).toEqual([]);
  });

  it('leaves a PR alone when every check failing on its head fails on the base branch too', async () => {
    const gh = recordingHost();
    gh.failing.set(HEAD, ['lint', 'test']);
    gh.failing.set('release', ['test', 'lint', 'e2e']);
    expect(await ciGuard(request(), 'release', config(), gh.host, [], 'me')).toBe(
      "`lint`, `test` fail on `release` too; that is not this pull request's doing, so greenfix leaves it alone.",
    );
    gh.failing.set(HEAD, ['test']);
    expect(await ciGuard(request(), 'release', config(), gh.host, [], 'me')).toBe(
      "`test` fails on `release` too; that is not this pull request's doing, so greenfix leaves it alone.",
    );
    expect(gh.writes).toEqual([]);
  });

  it('fixes a PR when one of its failing checks is green on the base, or nothing fails on the head', async () => {
    const gh = recordingHost();
    gh.failing.set(HEAD, ['lint', 'test']);
    gh.failing.set('main', ['test']);
    expect(await ciGuard(request(), 'main', config(), gh.host, [], 'me')).toBeNull();
    gh.failing.set(HEAD, []);
    expect(await ciGuard(request(), 'main', config(), gh.host, [], 'me')).toBeNull();
  });
});

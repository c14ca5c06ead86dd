import { RepoConfigSchema } from '../../src/config/repo-config.js';
import type { PullRequestInfo } from '../../src/github/types.js';
import { planTarget } from '../../src/job/target.js';
import type { JobRequest } from '../../src/triggers/types.js';

const REPO = { id: 1, owner: 'octo', name: 'widgets', cloneUrl: 'https://github.com/octo/widgets.git', defaultBranch: 'main' };
const config = (yml: unknown = {}) => RepoConfigSchema.parse(yml);

function request(overrides: Partial<JobRequest> = {}): JobRequest {
  return { kind: 'issue', installationId: 7, repo: REPO, number: 12, target: 'issue', title: 'Sum is wrong', body: '', sender: 'alice', ...overrides };
}

function pull(overrides: Partial<PullRequestInfo> = {}): PullRequestInfo {
  return {
    number: 40,
    url: 'https://github.com/octo/widgets/pull/40',
    state: 'open',
    draft: false,
    title: 'Add totals',
    body: '',
    headRef: 'feature/totals',
    headSha: 'a'.repeat(40),
    headRepoFullName: 'octo/widgets',
    baseRef: 'main',
    author: 'bob',
    ...overrides,
  };
}

const ciFix = (headSha = 'a'.repeat(40), ownPullRequest = false): Partial<JobRequest> => ({
  kind: 'ci_fix',
  number: 40,
  target: 'pull_request',
  ci: { headSha, headRef: 'feature/totals', checks: ['test'], checkRunIds: [9], ownPullRequest },
});

describe('planTarget', () => {
  it('an issue: <prefix>issue-<n> on the default branch, which it never pushes to, fixing the issue', () => {
    expect(planTarget(request(), config(), null)).toEqual({
      type: 'target',
      target: {
        branch: 'greenfix/issue-12',
        baseRef: 'refs/heads/main',
        fetchRefs: ['refs/heads/main'],
        prBase: 'main',
        protectedBranches: ['main'],
        fixesIssue: 12,
        title: 'Fix #12: Sum is wrong',
      },
    });
  });

  it('an issue under a configured prefix, with a multi-line title made one line and capped at 100 characters', () => {
    const plan = planTarget(request({ title: `  Sum\n\tis   ${'very '.repeat(30)}wrong ` }), config({ branch_prefix: 'bots/' }), null);
    if (plan.type !== 'target') throw new Error(`expected a target, got ${plan.type}`);
    expect(plan.target.branch).toBe('bots/issue-12');
    const subject = plan.target.title.slice('Fix #12: '.length);
    expect(subject).toHaveLength(100);
    expect(subject.startsWith('Sum is very very')).toBe(true);
    expect(subject.endsWith('…')).toBe(true);
    expect(plan.target.title).not.toMatch(/[\n\t]|\s{2}/);
  });

  it("a retry on greenfix's own PR: a new commit on its branch, against its base, still fixing its issue; commands detected on the default branch", () => {
    const pr = pull({ headRef: 'greenfix/issue-12', title: 'Fix #12: Sum is wrong', baseRef: 'release' });
    expect(planTarget(request({ kind: 'retry', number: 40, target: 'pull_request' }), config(), pr)).toEqual({
      type: 'target',
      target: {
        branch: 'greenfix/issue-12',
        baseRef: 'refs/pull/40/head',
        fetchRefs: ['refs/pull/40/head', 'refs/heads/main'],
        commandsFrom: 'refs/heads/main',
        prBase: 'release',
        protectedBranches: ['main', 'release'],
        fixesIssue: 12,
        title: 'Fix #12: Sum is wrong',
      },
    });
  });

  it("greenfix's own PR not named after an issue fixes no issue", () => {
    const plan = planTarget(request({ kind: 'retry', number: 40, target: 'pull_request' }), config(), pull({ headRef: 'greenfix/pr-33' }));
    expect(plan).toMatchObject({ type: 'target', target: { branch: 'greenfix/pr-33', fixesIssue: null } });
  });

  it("a human's PR: greenfix's own branch with a PR against theirs, never a push to their branch", () => {
    expect(planTarget(request({ kind: 'retry', number: 40, target: 'pull_request' }), config(), pull())).toEqual({
      type: 'target',
      target: {
        branch: 'greenfix/pr-40',
        baseRef: 'refs/pull/40/head',
        fetchRefs: ['refs/pull/40/head'],
        prBase: 'feature/totals',
        protectedBranches: ['main'],
        fixesIssue: null,
        title: 'Fix #40: Add totals',
      },
    });
  });

  it("a CI fix on a human's PR when the repository opted in: titled as a CI fix", () => {
    const plan = planTarget(request(ciFix()), config({ autofix: { humans: true } }), pull());
    expect(plan).toMatchObject({ type: 'target', target: { branch: 'greenfix/pr-40', prBase: 'feature/totals', title: 'Fix CI on #40: Add totals' } });
  });

  it("refuses a CI fix on a human's PR without the opt-in (autofix.humans)", () => {
    const plan = planTarget(request(ciFix()), config(), pull());
    expect(plan).toMatchObject({ type: 'refuse', code: 'humans_opt_in' });
  });

  it("skips a CI fix on greenfix's own PR when autofix.own is off, and takes it when on", () => {
    const own = pull({ headRef: 'greenfix/issue-12' });
    expect(planTarget(request(ciFix(own.headSha, true)), config({ autofix: { own: false } }), own)).toMatchObject({ type: 'skip' });
    expect(planTarget(request(ciFix(own.headSha, true)), config(), own)).toMatchObject({ type: 'target', target: { branch: 'greenfix/issue-12', fixesIssue: 12 } });
  });

  it('skips a CI fix whose PR has moved on from the failing commit', () => {
    const plan = planTarget(request(ciFix('b'.repeat(40))), config({ autofix: { humans: true } }), pull());
    expect(plan).toEqual({ type: 'skip', reason: '#40 has moved on from bbbbbbb; the failure is outdated' });
  });

  it('refuses a PR from a fork, and one whose fork was deleted, whatever the job', () => {
    for (const headRepoFullName of ['mallory/widgets', null]) {
      for (const kind of ['retry', 'review', 'ci_fix'] as const) {
        const plan = planTarget(request({ ...ciFix(), kind }), config({ autofix: { humans: true } }), pull({ headRepoFullName }));
        expect({ kind, headRepoFullName, plan: plan.type === 'refuse' ? plan.code : plan.type }).toEqual({ kind, headRepoFullName, plan: 'fork' });
      }
    }
  });

  it('refuses a closed PR before anything else (a closed fork PR is refused as closed)', () => {
    expect(planTarget(request({ kind: 'retry' }), config(), pull({ state: 'closed', headRepoFullName: 'mallory/widgets' }))).toEqual({
      type: 'refuse',
      code: 'closed',
      message: 'pull request #40 is closed',
    });
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { basicAuthValue } from '../../src/workspace/git-auth.js';
import { commitVerifiedTree } from '../../src/workspace/commit-tree.js';
import { resolveRef, syncMirror } from '../../src/workspace/mirror.js';
import { GitRemoteError } from '../../src/workspace/mirror-remote.js';
import { pushBranch, PushConflictError, PushRefusedError, type PushBranchOptions } from '../../src/workspace/push-branch.js';
import { addWorktree, removeWorktree } from '../../src/workspace/worktree.js';
import { TempDirs } from '../support/temp-dir.js';
import { writeFiles } from '../support/make-repo.js';
import { rev, startUpstream, TOKEN, type Upstream } from './mirror-fixture.js';

const temp = new TempDirs();
let up: Upstream;
/** What the server's hook does before serving a request (the conflict test moves a ref here). */
let beforeRequest: (r: { method: string; path: string; query: string }) => Promise<void>;
beforeEach(async () => {
  beforeRequest = async () => undefined;
  up = await startUpstream(temp, { beforeRequest: (r) => beforeRequest(r) });
});
afterEach(async () => {
  await up.server.close();
  temp.cleanup();
});

/** Sync, check out main in a job worktree, change a file, commit the tree as greenfix would. */
async function makeFix(content: string): Promise<{ gitDir: string; commit: string; worktree: string }> {
  const { gitDir } = await syncMirror({ workdir: up.workdir, repoId: 7, cloneUrl: up.cloneUrl, token: TOKEN, refs: ['refs/heads/main'] });
  const base = await resolveRef(gitDir, 'refs/heads/main');
  const worktree = join(up.workdir, 'jobs', `job-${content.length}`, 'wt');
  const ws = await addWorktree({ repo: gitDir, path: worktree, ref: base, stateDir: join(up.workdir, 'jobs', `job-${content.length}`, 'state') });
  writeFiles(worktree, { 'README.md': content });
  const tree = await ws.treeHash();
  const commit = await commitVerifiedTree({ repo: worktree, tree, parent: base, message: 'Fix #1: readme', date: new Date(0) });
  return { gitDir, commit, worktree };
}

const push = (o: Partial<PushBranchOptions> & Pick<PushBranchOptions, 'gitDir' | 'commit'>) =>
  pushBranch({ cloneUrl: up.cloneUrl, token: TOKEN, branch: 'greenfix/issue-1', allowedPrefix: 'greenfix/', protectedBranches: ['main'], ...o });

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe('pushBranch', () => {
  it('pushes the commit from the mirror, then is a no-op when the remote already has it', async () => {
    const { gitDir, commit } = await makeFix('fixed\n');
    expect(await push({ gitDir, commit })).toEqual({ pushed: true, previous: null });
    expect(await rev(up.bare, 'refs/heads/greenfix/issue-1')).toBe(commit);
    const before = up.server.requests.length;
    expect(await push({ gitDir, commit })).toEqual({ pushed: false, previous: commit });
    expect(up.server.requests.slice(before).some((r) => r.query.includes('receive-pack'))).toBe(false);
  });

  it('moves greenfix\'s own branch to a new attempt (forced, leased on what it read)', async () => {
    const first = await makeFix('first\n');
    await push({ gitDir: first.gitDir, commit: first.commit });
    const second = await makeFix('second attempt\n');
    expect(await push({ gitDir: second.gitDir, commit: second.commit })).toEqual({ pushed: true, previous: first.commit });
    expect(await rev(up.bare, 'refs/heads/greenfix/issue-1')).toBe(second.commit);
  });

  it('refuses the default branch, branches outside the prefix and malformed names without contacting the remote', async () => {
    const { gitDir, commit } = await makeFix('fixed\n');
    const before = up.server.requests.length;
    const refusal = (branch: string, extra: Partial<PushBranchOptions> = {}) =>
      push({ gitDir, commit, branch, ...extra }).catch((e: unknown) => e);
    expect(await refusal('main')).toMatchObject({ reason: 'protected_branch' });
    expect(await refusal('greenfix/x', { protectedBranches: ['refs/heads/greenfix/x'] })).toMatchObject({ reason: 'protected_branch' });
    expect(await refusal('main', { allowedPrefix: '', protectedBranches: [] })).toMatchObject({ reason: 'not_greenfix_branch' });
    expect(await refusal('feature/x')).toMatchObject({ reason: 'not_greenfix_branch' });
    expect(await refusal('greenfix/')).toBeInstanceOf(PushRefusedError);
    expect(await refusal('greenfix/a..b')).toMatchObject({ reason: 'invalid_branch' });
    expect(await refusal('greenfix/x:refs/heads/main')).toMatchObject({ reason: 'invalid_branch' });
    expect(up.server.requests.length).toBe(before);
    expect(await rev(up.bare, 'refs/heads/main')).not.toBe(commit);
  });

  it('a push by someone else between the read and the push is a conflict, and their commit stays', async () => {
    const first = await makeFix('first\n');
    await push({ gitDir: first.gitDir, commit: first.commit });
    const second = await makeFix('second attempt\n');
    const human = await up.commit({ 'human.txt': 'mine\n' }, 'refs/heads/scratch');
    beforeRequest = async (r) => {
      if (r.query === 'service=git-receive-pack') {
        await git(['update-ref', 'refs/heads/greenfix/issue-1', human], { cwd: up.bare });
      }
    };
    const error = await push({ gitDir: second.gitDir, commit: second.commit }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PushConflictError);
    expect(error).toMatchObject({ branch: 'greenfix/issue-1', expected: first.commit, actual: human });
    expect(await rev(up.bare, 'refs/heads/greenfix/issue-1')).toBe(human);
  });

  it('an empty lease: a branch someone created before greenfix\'s first push is a conflict', async () => {
    const { gitDir, commit } = await makeFix('fixed\n');
    const human = await up.commit({ 'human.txt': 'mine\n' }, 'refs/heads/scratch');
    beforeRequest = async (r) => {
      if (r.query === 'service=git-receive-pack') await git(['update-ref', 'refs/heads/greenfix/issue-1', human], { cwd: up.bare });
    };
    await expect(push({ gitDir, commit })).rejects.toMatchObject({ expected: null, actual: human });
    expect(await rev(up.bare, 'refs/heads/greenfix/issue-1')).toBe(human);
  });

  it('a push with a wrong token is a typed auth error', async () => {
    const { gitDir, commit } = await makeFix('fixed\n');
    await expect(push({ gitDir, commit, token: 'ghs_nope' })).rejects.toMatchObject({ kind: 'auth', operation: 'ls-remote' });
    await expect(push({ gitDir, commit, token: 'ghs_nope' })).rejects.toBeInstanceOf(GitRemoteError);
  });

  it('leaves the token nowhere under the workdir after sync, worktree, commit and push', async () => {
    const { gitDir, commit, worktree } = await makeFix('fixed\n');
    await push({ gitDir, commit });
    await syncMirror({ workdir: up.workdir, repoId: 7, cloneUrl: up.cloneUrl, token: TOKEN, refs: ['refs/heads/main', 'refs/heads/greenfix/issue-1'] });
    const files = filesUnder(up.workdir);
    expect(files).toContain(join(worktree, '.git'));
    expect(files).toContain(join(gitDir, 'config'));
    const secrets = [TOKEN, basicAuthValue(TOKEN).slice('Basic '.length)];
    const leaks = files.filter((f) => secrets.some((s) => readFileSync(f).includes(s)));
    expect(leaks).toEqual([]);
    await removeWorktree(gitDir, worktree);
  });
});

import { git, GitError } from '../../src/workspace/git.js';
import { commitVerifiedTree, GREENFIX_IDENTITY, updateBranch } from '../../src/workspace/commit-tree.js';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { rev } from './helpers.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe('commitVerifiedTree', () => {
  it('commits exactly the tree, idempotently, with greenfix as author and committer', async () => {
    const root = makeRepo(temp.make(), { 'a.txt': 'a\n' });
    const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: temp.make() });
    writeFiles(root, { 'a.txt': 'fixed\n', 'b.txt': 'new\n' });
    const tree = await ws.treeHash();
    const input = { repo: root, tree, parent: ws.baseCommit, message: 'Fix a\n\nVerified tree: ' + tree, date: new Date('2026-01-02T03:04:05Z') };
    const first = await commitVerifiedTree(input);
    const again = await commitVerifiedTree({ ...input });
    expect(again).toBe(first);
    expect(await commitVerifiedTree({ ...input, date: new Date('2026-01-02T03:04:06Z') })).not.toBe(first);

    await updateBranch(root, 'greenfix/fix-a', first);
    expect(await rev(root, 'greenfix/fix-a^{tree}')).toBe(tree);
    expect(await rev(root, 'greenfix/fix-a^')).toBe(ws.baseCommit);
    const meta = await git(['log', '-1', '--format=%an <%ae>|%cn <%ce>|%at|%B', 'greenfix/fix-a'], { cwd: root });
    const who = `${GREENFIX_IDENTITY.name} <${GREENFIX_IDENTITY.email}>`;
    expect(meta).toBe(`${who}|${who}|${Date.parse('2026-01-02T03:04:05Z') / 1000}|${input.message}\n\n`);
  });

  it('moves an existing branch and refuses invalid branch names with a GitError', async () => {
    const root = makeRepo(temp.make(), { 'a.txt': 'a\n' });
    const base = await rev(root, 'HEAD');
    const tree = await rev(root, 'HEAD^{tree}');
    const c1 = await commitVerifiedTree({ repo: root, tree, parent: base, message: 'one', date: new Date(1000) });
    const c2 = await commitVerifiedTree({ repo: root, tree, parent: c1, message: 'two', date: new Date(2000) });
    await updateBranch(root, 'greenfix/x', c1);
    await updateBranch(root, 'greenfix/x', c2);
    expect(await rev(root, 'greenfix/x')).toBe(c2);
    const bad = updateBranch(root, 'bad..name', c2);
    await expect(bad).rejects.toBeInstanceOf(GitError);
    await expect(bad).rejects.toMatchObject({ kind: 'exit', args: ['check-ref-format', '--branch', 'bad..name'] });
  });
});

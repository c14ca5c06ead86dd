import { execFileSync } from 'node:child_process';
import { copyFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { treeOfCommitInCopy } from './helpers.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const FILES = { 'src/a.js': 'export const a = 1;\n', 'src/b.js': 'export const b = 2;\n', 'README.md': '# demo\n' };

async function open(repoConfig: Record<string, string> = {}, indexArgs: string[] = []) {
  const root = makeRepo(temp.make(), FILES);
  for (const [key, value] of Object.entries(repoConfig)) await git(['config', key, value], { cwd: root });
  // Written an hour ago: no entry is racy (as new as the index), so only the stat check can see a change.
  for (const path of Object.keys(FILES)) execFileSync('touch', ['-d', '1 hour ago', join(root, path)]);
  if (indexArgs.length > 0) await git(['update-index', ...indexArgs], { cwd: root });
  const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: temp.make('gf-state-') });
  return { root, ws };
}

/**
 * The tree hash re-hashes only files whose stat changed since the last hash: a command that
 * rewrites a file and lies about it (same size, the old mtime put back to the nanosecond) must
 * still change the hash. The kernel sets ctime on every write and every utimes, and nobody can
 * set it back; git compares it unless told not to.
 */
describe('tree hash against a worktree that lies about its changes', () => {
  const lie = (root: string) => {
    const path = join(root, 'src/a.js');
    const reference = join(root, '..', 'a.js.mtime');
    copyFileSync(path, reference);
    execFileSync('touch', ['-r', path, reference]);
    writeFileSync(path, 'export const a = 9;\n'); // same size
    execFileSync('touch', ['-r', reference, path]);
    expect(statSync(path, { bigint: true }).mtimeNs).toBe(statSync(reference, { bigint: true }).mtimeNs);
  };

  /** Hashes, lies, hashes again: the second hash must be the tree of what the worktree now holds. */
  const expectLieSeen = async ({ root, ws }: Awaited<ReturnType<typeof open>>) => {
    const before = await ws.treeHash();
    lie(root);
    const after = await ws.treeHash();
    expect(after).not.toBe(before);
    expect(after).toBe(await treeOfCommitInCopy(root, temp.make()));
  };

  it('sees a same-size rewrite whose mtime was restored', async () => {
    await expectLieSeen(await open());
  });

  it('still sees it when the repository config says not to trust ctime or to check only mtime and size', async () => {
    await expectLieSeen(await open({ 'core.trustctime': 'false', 'core.checkStat': 'minimal' }));
  });

  it('reads an index git wrote as version 4 or split (a repository configured so): converted, then the same', async () => {
    await expectLieSeen(await open({ 'index.version': '4', 'core.splitIndex': 'true', 'feature.manyFiles': 'true' }, ['--index-version', '4', '--split-index']));
  });

  it('sees a same-size rewrite in the same instant as the hash before it (racy entries)', async () => {
    const { root, ws } = await open();
    for (let round = 0; round < 3; round++) {
      await ws.treeHash();
      writeFileSync(join(root, 'src/b.js'), `export const b = ${round};\n`);
      expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
    }
  });
});

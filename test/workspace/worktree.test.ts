import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { addWorktree, removeWorktree } from '../../src/workspace/worktree.js';
import { IDENTITY, rev } from './helpers.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

async function listedWorktrees(repo: string): Promise<string[]> {
  const out = await git(['worktree', 'list', '--porcelain'], { cwd: repo });
  return out.split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice(9));
}

describe('worktrees', () => {
  it('adds a clean detached worktree at the ref and removes it with everything in it', async () => {
    const repo = makeRepo(temp.make(), { 'package.json': '{}\n', '.gitignore': 'node_modules/\n' });
    const base = await rev(repo, 'HEAD');
    writeFiles(repo, { 'node_modules/dep/index.js': 'x\n', 'later.txt': 'l\n' });
    await git(['add', 'later.txt'], { cwd: repo });
    await git([...IDENTITY, 'commit', '-q', '-m', 'later'], { cwd: repo });

    const path = join(temp.make(), 'wt');
    const ws = await addWorktree({ repo, path, ref: base, stateDir: temp.make() });
    expect(ws.root).toBe(path);
    expect(ws.baseCommit).toBe(base);
    expect(readdirSync(path).sort()).toEqual(['.git', '.gitignore', 'package.json']);
    expect(await rev(path, 'HEAD')).toBe(base);
    expect(await git(['symbolic-ref', '-q', 'HEAD'], { cwd: path }).catch((e: { exitCode: number }) => e.exitCode)).toBe(1);
    expect(await ws.treeHash()).toBe(await rev(repo, `${base}^{tree}`));

    writeFiles(path, { 'node_modules/big/x.js': 'x\n', 'untracked.txt': 'u\n' });
    await removeWorktree(repo, path);
    expect(existsSync(path)).toBe(false);
    expect(await listedWorktrees(repo)).toEqual([repo]);
  });

  it('reopens an existing worktree (resume) and removal tolerates a missing one', async () => {
    const repo = makeRepo(temp.make(), { 'a.txt': 'a\n' });
    const path = join(temp.make(), 'wt');
    const stateDir = temp.make();
    const first = await addWorktree({ repo, path, ref: 'main', stateDir });
    writeFiles(path, { 'a.txt': 'edited\n' });
    const again = await addWorktree({ repo, path, ref: 'main', stateDir });
    expect(await again.treeHash()).toBe(await first.treeHash());
    expect(await listedWorktrees(repo)).toHaveLength(2);
    await removeWorktree(repo, path);
    await removeWorktree(repo, path);
    expect(await listedWorktrees(repo)).toEqual([repo]);
  });
});

describe('the sandbox git view', () => {
  it('is made once from the repository, holds no config of it, and is remade only when gone', async () => {
    const repo = makeRepo(temp.make(), { 'a.txt': 'a\n' });
    await git(['remote', 'add', 'origin', 'https://user:tok3n@example.com/r.git'], { cwd: repo });
    const base = await rev(repo, 'HEAD');
    const path = join(temp.make(), 'wt');
    const stateDir = temp.make();
    const ws = await addWorktree({ repo, path, ref: base, stateDir });
    const [objects, view] = ws.sandboxBinds;
    expect(objects).toEqual({ source: realpathSync(join(repo, '.git', 'objects')), target: realpathSync(join(repo, '.git', 'objects')) });
    expect(view?.target).toBe(ws.gitDir);
    expect(readFileSync(join(view!.source, 'HEAD'), 'utf8')).toBe(`${base}\n`);
    expect(readFileSync(join(view!.source, 'config'), 'utf8')).not.toMatch(/remote|tok3n|url/);
    expect(readFileSync(join(view!.source, 'objects', 'info', 'alternates'), 'utf8')).toBe(`${objects!.source}\n`);
    // Whatever the worktree's .git says later, reopening keeps the saved view.
    writeFiles(path, { '.git': 'gitdir: /etc\n' });
    expect((await addWorktree({ repo, path, ref: base, stateDir })).sandboxBinds).toEqual(ws.sandboxBinds);
    rmSync(view!.source, { recursive: true, force: true });
    const again = await addWorktree({ repo, path, ref: base, stateDir });
    expect(again.sandboxBinds).toEqual(ws.sandboxBinds);
    expect(existsSync(join(view!.source, 'HEAD'))).toBe(true);
    await removeWorktree(repo, path);
    expect(await listedWorktrees(repo)).toEqual([repo]);
  });
});

import { chownSync, existsSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { rev, treeOfCommitInCopy } from './helpers.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const BASE_FILES = {
  'README.md': '# demo\n',
  'src/a.js': 'export const a = 1;\n',
  'src/b.js': 'export const b = 2;\n',
  '.gitignore': 'node_modules/\n*.log\n',
  'package-lock.json': '{"lockfileVersion":3}\n',
};

async function setup(files: Record<string, string | Buffer> = BASE_FILES) {
  const root = makeRepo(temp.make(), files);
  const stateDir = temp.make('gf-state-');
  const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir });
  const baseTree = await rev(root, 'HEAD^{tree}');
  return { root, stateDir, ws, baseTree };
}

describe('GitWorkspace.treeHash', () => {
  it('equals HEAD^{tree} on a clean checkout, and resolves the base to a full oid', async () => {
    const { root, ws, baseTree } = await setup();
    expect(await ws.treeHash()).toBe(baseTree);
    expect(ws.baseCommit).toBe(await rev(root, 'HEAD'));
  });

  it('equals the tree `git add -A && git commit` makes, after edits, creations and deletions', async () => {
    const { root, ws, baseTree } = await setup();
    writeFiles(root, { 'src/a.js': 'export const a = 42;\n', 'src/new/c.js': 'c\n' });
    unlinkSync(join(root, 'src/b.js'));
    const hash = await ws.treeHash();
    expect(hash).not.toBe(baseTree);
    expect(hash).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it('honours .gitignore, including patterns added after a file was first hashed', async () => {
    const { root, ws, baseTree } = await setup();
    writeFiles(root, { 'node_modules/x/index.js': 'x\n', 'debug.log': 'noise\n' });
    expect(await ws.treeHash()).toBe(baseTree);
    writeFiles(root, { 'out/build.txt': 'built\n' });
    expect(await ws.treeHash()).not.toBe(baseTree);
    writeFiles(root, { '.gitignore': `${BASE_FILES['.gitignore']}out/\n` });
    expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it('keeps the scratch dir outside the worktree (host-owned, 0700), so it is never in the tree', async () => {
    const { root, ws, baseTree } = await setup();
    expect(relative(root, ws.scratchDir).startsWith('..')).toBe(true);
    expect(statSync(ws.scratchDir).mode & 0o777).toBe(0o700);
    writeFiles(ws.scratchDir, { 'run-1.log': 'output\n', 'nested/x.txt': 'x\n' });
    expect(await ws.treeHash()).toBe(baseTree);
    expect(await git(['status', '--porcelain'], { cwd: root })).toBe('');
    expect(existsSync(join(root, '.greenfix'))).toBe(false);
  });

  it('never touches the worktree’s own index', async () => {
    const { root, ws } = await setup();
    const indexPath = join(root, '.git', 'index');
    const before = { bytes: readFileSync(indexPath), mtime: statSync(indexPath).mtimeMs };
    writeFiles(root, { 'src/a.js': 'changed\n', 'fresh.txt': 'new\n' });
    await ws.treeHash();
    await ws.observe(async () => writeFiles(root, { 'made.txt': 'm\n' }), 'created');
    await ws.treeHash();
    expect(readFileSync(indexPath).equals(before.bytes)).toBe(true);
    expect(statSync(indexPath).mtimeMs).toBe(before.mtime);
    const status = await git(['status', '--porcelain'], { cwd: root, env: { GIT_OPTIONAL_LOCKS: '0' } });
    expect(status.split('\n').filter(Boolean).sort()).toEqual([' M src/a.js', '?? fresh.txt', '?? made.txt']);
  });

  it('hashes binary files and non-UTF-8 file names like git does', async () => {
    const { root, ws } = await setup();
    const binary = Buffer.from([0, 255, 1, 254, 0, 0, 10, 13, 128]);
    writeFileSync(Buffer.from(join(root, 'caf\xe9-latin1.bin'), 'latin1'), binary);
    writeFiles(root, { 'naïve ünïcode.txt': 'utf8 name\n', 'with space/and "quote".txt': 'q\n', 'img.png': binary });
    expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it('works on files owned by another uid (safe.directory)', async () => {
    if (process.getuid?.() !== 0) return; // chown needs root; CI runs as root
    const { root, ws } = await setup();
    writeFiles(root, { 'src/a.js': 'sandbox edit\n' });
    await git(['ls-files', '-z'], { cwd: root }).then((out) => {
      for (const p of [root, ...out.split('\0').filter(Boolean).map((f) => join(root, f))]) chownSync(p, 65534, 65534);
    });
    expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it('keeps using the git dir pinned at open, whatever the worktree’s .git says later', async () => {
    const { root, stateDir, baseTree } = await setup();
    const dotGit = join(root, '.git');
    const realGitDir = join(temp.make(), 'moved.git');
    const { renameSync } = await import('node:fs');
    renameSync(dotGit, realGitDir);
    writeFileSync(dotGit, `gitdir: ${realGitDir}\n`);
    const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: join(stateDir, 'fresh') });
    writeFileSync(dotGit, 'gitdir: /nonexistent/evil\n');
    expect(await ws.treeHash()).toBe(baseTree);
    // Exposed for the tools that run git themselves (list_files, search).
    expect(ws.gitDir).toBe(realGitDir);
    rmSync(dotGit);
  });
});

import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { GitWorkspace, WorkspaceStateMismatchError } from '../../src/workspace/git-workspace.js';
import { commitVerifiedTree } from '../../src/workspace/commit-tree.js';
import { IDENTITY, rev, treeOfCommitInCopy } from './helpers.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const LOCK = '{"lockfileVersion":3}\n';

async function setup() {
  const root = makeRepo(temp.make(), {
    'src/a.js': 'export const a = 1;\n',
    'package-lock.json': LOCK,
    '.gitignore': 'node_modules/\n',
    'old.txt': 'old\n',
  });
  const stateDir = temp.make('gf-state-');
  const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir });
  return { root, stateDir, ws, baseTree: await rev(root, 'HEAD^{tree}') };
}

async function blobAt(repo: string, treeish: string, path: string): Promise<string> {
  return (await git(['rev-parse', `${treeish}:${path}`], { cwd: repo })).trim();
}

describe('GitWorkspace.observe', () => {
  it('reports created and changed paths, ignoring ignored files, and returns the value', async () => {
    const { root, ws } = await setup();
    const seen = await ws.observe(async () => {
      writeFiles(root, { 'coverage/lcov.info': 'TN:\n', 'node_modules/x.js': 'x\n', 'src/a.js': 'edited\n' });
      unlinkSync(join(root, 'old.txt'));
      return 7;
    }, 'created');
    expect(seen).toEqual({ value: 7, created: ['coverage/lcov.info'], changed: ['old.txt', 'src/a.js'] });
  });

  it('sets created files aside until they are edited afterwards', async () => {
    const { root, ws, baseTree } = await setup();
    const before = await ws.treeHash();
    await ws.observe(async () => writeFiles(root, { '.pytest_cache/v/x': '1\n', 'coverage/out.json': '{}\n' }), 'created');
    expect(await ws.treeHash()).toBe(before);
    expect(before).toBe(baseTree);
    writeFiles(root, { 'coverage/out.json': '{"edited":true}\n' });
    const after = await ws.treeHash();
    expect(after).not.toBe(baseTree);
    expect(await blobAt(root, after, 'coverage/out.json')).toBe(
      (await git(['hash-object', 'coverage/out.json'], { cwd: root })).trim(),
    );
    // Only the edited file came back; its untouched sibling stays out.
    await expect(blobAt(root, after, '.pytest_cache/v/x')).rejects.toMatchObject({ kind: 'exit' });
  });

  it("under 'all' a rewritten tracked file (setup's lockfile) stays at base in the hash and the commit", async () => {
    const { root, ws, baseTree } = await setup();
    const seen = await ws.observe(async () => writeFiles(root, { 'package-lock.json': '{"rewritten":true}\n' }), 'all');
    expect(seen.changed).toEqual(['package-lock.json']);
    expect(await ws.treeHash()).toBe(baseTree);
    writeFiles(root, { 'src/a.js': 'fix\n' });
    const tree = await ws.treeHash();
    const commit = await commitVerifiedTree({ repo: root, tree, parent: ws.baseCommit, message: 'fix', date: new Date(0) });
    expect(await blobAt(root, commit, 'package-lock.json')).toBe(await blobAt(root, 'HEAD', 'package-lock.json'));
    expect(await blobAt(root, commit, 'src/a.js')).not.toBe(await blobAt(root, 'HEAD', 'src/a.js'));
  });

  it("under 'created' a modified tracked file is part of the change", async () => {
    const { root, ws, baseTree } = await setup();
    const seen = await ws.observe(async () => writeFiles(root, { 'src/a.js': 'written by tests\n' }), 'created');
    expect(seen.changed).toEqual(['src/a.js']);
    const hash = await ws.treeHash();
    expect(hash).not.toBe(baseTree);
    expect(hash).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it("a deleted file is reported; under 'all' the base's version stays in the hash", async () => {
    const { root, ws, baseTree } = await setup();
    const seen = await ws.observe(async () => rmSync(join(root, 'old.txt')), 'all');
    expect(seen).toMatchObject({ created: [], changed: ['old.txt'] });
    expect(await ws.treeHash()).toBe(baseTree);
    writeFiles(root, { 'old.txt': 'recreated by the agent\n' });
    expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it('keeps a set-aside file aside when a later run rewrites it again', async () => {
    const { root, ws, baseTree } = await setup();
    await ws.observe(async () => writeFiles(root, { '.cache/run': '1\n' }), 'created');
    const second = await ws.observe(async () => writeFiles(root, { '.cache/run': '2\n' }), 'created');
    expect(second.changed).toEqual(['.cache/run']);
    expect(await ws.treeHash()).toBe(baseTree);
  });

  it('a set-aside file the agent edited is part of the change, even if a later run rewrites it', async () => {
    const { root, ws, baseTree } = await setup();
    await ws.observe(async () => writeFiles(root, { 'snap/a.snap': 'generated\n' }), 'created');
    writeFiles(root, { 'snap/a.snap': 'edited by the agent\n' });
    await ws.observe(async () => writeFiles(root, { 'snap/a.snap': 'regenerated\n' }), 'created');
    const hash = await ws.treeHash();
    expect(hash).not.toBe(baseTree);
    expect(hash).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it('records leftovers of an action that throws, then rethrows', async () => {
    const { root, ws, baseTree } = await setup();
    const failing = ws.observe(async () => {
      writeFiles(root, { 'half-installed.txt': 'x\n' });
      throw new Error('setup failed');
    }, 'all');
    await expect(failing).rejects.toThrow('setup failed');
    expect(await ws.treeHash()).toBe(baseTree);
  });

  it('persists set-aside paths: a reopened workspace hashes the same', async () => {
    const { root, stateDir, ws, baseTree } = await setup();
    await ws.observe(async () => writeFiles(root, { 'package-lock.json': '{"x":1}\n', 'gen.txt': 'g\n' }), 'all');
    const reopened = await GitWorkspace.open({ root, baseCommit: ws.baseCommit, stateDir });
    expect(await reopened.treeHash()).toBe(baseTree);
    await git([...IDENTITY, 'commit', '-q', '--allow-empty', '-m', 'later'], { cwd: root });
    await expect(GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir })).rejects.toBeInstanceOf(WorkspaceStateMismatchError);
  });

  it('sets aside a file with a non-UTF-8 name and reports it readably', async () => {
    const { root, ws, baseTree } = await setup();
    const seen = await ws.observe(async () => {
      writeFileSync(Buffer.from(join(root, 'r\xe9sum\xe9.dat'), 'latin1'), Buffer.from([0, 1, 2, 255]));
      writeFiles(root, { 'é.txt': 'utf8\n' });
    }, 'created');
    expect(seen.created).toEqual(['r\ufffdsum\ufffd.dat', 'é.txt'].sort());
    expect(await ws.treeHash()).toBe(baseTree);
  });

  it('serialises concurrent hashing on the private index', async () => {
    const { root, ws } = await setup();
    writeFiles(root, { 'src/a.js': 'concurrent\n' });
    const hashes = await Promise.all([ws.treeHash(), ws.treeHash(), ws.treeHash(), ws.treeHash()]);
    expect(new Set(hashes).size).toBe(1);
  });
});

import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FileOwner } from '../../src/sandbox/ownership.js';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { restoreKept, stageKept } from '../../src/workspace/restore-kept.js';
import { addWorktree } from '../../src/workspace/worktree.js';
import { git } from '../../src/workspace/git.js';
import { isRoot } from '../sandbox/fixtures.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

/** Every entry under `dir`: its type, mode, owner, content (or link target), and with `inodes` the inode of a file greenfix owns (a kept file linked in shares it). */
function listing(dir: string, inodes: boolean): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const st = lstatSync(path);
      const kind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : 'file';
      const content = kind === 'file' ? createHash('sha1').update(readFileSync(path)).digest('hex').slice(0, 12) : kind === 'link' ? `-> ${readlinkSync(path)}` : '';
      out.push(`${relative(dir, path)} ${kind} ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid} ${content}${inodes && kind === 'file' && st.uid === process.getuid?.() ? ` ino ${st.ino}` : ''}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

/**
 * A job's workspace whose setup left node_modules (a directory, a nested root, a symlink) and a
 * file, kept as runFix keeps it; `owner` is who setup ran as (root: another uid, so linked).
 */
async function keptWorkspace(owner: FileOwner | null): Promise<{ ws: GitWorkspace; dir: string; files: number }> {
  const dir = temp.make('gf-room-staging-');
  chmodSync(dir, 0o755);
  const repo = makeRepo(join(dir, 'repo'), { '.gitignore': 'node_modules/\nsetup-out.txt\n', 'lib.txt': 'broken\n', 'packages/a/package.json': '{}\n', 'src/one.js': '1\n', 'src/deep/two.js': '2\n', 'docs/readme': 'read me\n' });
  const ws = await addWorktree({ repo, path: join(dir, 'worktree'), ref: 'HEAD', stateDir: join(dir, 'state') });
  mkdirSync(join(ws.root, 'node_modules', 'dep', 'sub'), { recursive: true });
  writeFileSync(join(ws.root, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(ws.root, 'node_modules', 'dep', 'sub', 'x.js'), 'x\n');
  mkdirSync(join(ws.root, 'node_modules', '.bin'));
  symlinkSync('../dep/index.js', join(ws.root, 'node_modules', '.bin', 'dep'));
  mkdirSync(join(ws.root, 'packages', 'a', 'node_modules', 'b'), { recursive: true });
  writeFileSync(join(ws.root, 'packages', 'a', 'node_modules', 'b', 'i.js'), 'b\n');
  writeFileSync(join(ws.root, 'setup-out.txt'), 'made by setup\n');
  if (owner) chownTree(ws.root, owner);
  const kept = await ws.keepSetupState(owner);
  expect(kept.refused).toEqual([]);
  return { ws, dir, files: kept.files };
}

function chownTree(root: string, owner: FileOwner): void {
  for (const path of ['node_modules', 'packages/a/node_modules', 'setup-out.txt']) {
    const walk = (at: string) => {
      const st = lstatSync(at);
      if (st.isDirectory()) for (const name of readdirSync(at)) walk(join(at, name));
      // lchown: the symlink itself, never what it points at.
      lchownSync(at, owner.uid, owner.gid);
    };
    walk(join(root, path));
  }
}

/** A tree: the base with `add` (path → [mode, content]) written over it and `remove` gone, as a model's change would make it. */
async function treeWith(ws: GitWorkspace, dir: string, add: Record<string, [string, string]>, remove: string[] = []): Promise<string> {
  const env = { GIT_DIR: ws.gitDir, GIT_INDEX_FILE: join(dir, `tree-${Object.keys(add).length}-${remove.length}.index`) };
  await git(['read-tree', ws.baseCommit], { cwd: ws.root, env });
  if (remove.length > 0) await git(['update-index', '--force-remove', '--', ...remove], { cwd: ws.root, env });
  for (const [path, [mode, content]] of Object.entries(add)) {
    const blob = (await git(['hash-object', '-w', '--stdin'], { cwd: ws.root, env, input: content })).trim();
    await git(['update-index', '--add', '--replace', '--cacheinfo', `${mode},${blob},${path}`], { cwd: ws.root, env });
  }
  return (await git(['write-tree'], { cwd: ws.root, env })).trim();
}

const OTHER: FileOwner = { uid: 54_321, gid: 54_321 };
const owners: Array<[string, FileOwner | null]> = isRoot ? [['another uid (hard links)', OTHER], ['greenfix itself (copies)', null]] : [['greenfix itself (copies)', null]];

describe.each(owners)('clean rooms with the setup state staged ahead, tests as %s', (_name, owner) => {
  it('a staged room holds exactly what a room restored entry by entry holds: paths, types, modes, owners, the kept inodes', async () => {
    const { ws, files } = await keptWorkspace(owner);
    const tree = await ws.treeHash();
    const direct = await ws.openCleanRoom(tree, owner);
    const expected = listing(direct.dir, owner !== null);
    expect(direct.timings).toMatchObject({ files, staged: 0, treeStaged: false });
    await direct.dispose();

    const staging = ws.prepareCleanRooms(owner);
    expect(await staging.ready()).toMatchObject({ keptFiles: files });
    const room = await ws.openCleanRoom(tree, owner);
    try {
      expect(room.timings).toMatchObject({ files, staged: files, treeStaged: true });
      const got = listing(room.dir, owner !== null);
      // Directories are made anew; everything else (and, linked, the kept files' own inodes) is the same.
      expect(got).toEqual(expected);
      expect(got).toEqual(expect.arrayContaining([expect.stringMatching(/^node_modules\/\.bin\/dep link/), expect.stringMatching(/^packages\/a\/node_modules\/b\/i\.js file/), expect.stringMatching(/^setup-out\.txt file/)]));
    } finally {
      await room.dispose();
      await staging.stop();
    }
  });

  it('a staged room brought to a changed tree is the tree checked out afresh: edits, additions, deletions, new types and modes', async () => {
    const { ws, dir } = await keptWorkspace(owner);
    const tree = await treeWith(
      ws,
      dir,
      {
        'lib.txt': ['100644', 'fixed\n'],
        'new/nested/file.js': ['100644', 'new\n'],
        'src/one.js': ['100755', '1\n'],
        docs: ['100644', 'a file where a directory was\n'],
        'src/link': ['120000', '../lib.txt'],
        'node_modules/dep/index.js': ['100644', 'the tree\'s own\n'],
      },
      ['src/deep/two.js', 'docs/readme', 'packages/a/package.json'],
    );
    const direct = await ws.openCleanRoom(tree, owner);
    const expected = listing(direct.dir, owner !== null);
    await direct.dispose();
    const staging = ws.prepareCleanRooms(owner);
    await staging.ready();
    const room = await ws.openCleanRoom(tree, owner);
    try {
      expect(room.timings.treeStaged).toBe(true);
      expect(listing(room.dir, owner !== null)).toEqual(expected);
      // The emptied directory is gone, and with packages/a gone its kept root is not placed.
      expect(expected.some((line) => line.startsWith('src/deep'))).toBe(false);
      expect(expected.some((line) => line.startsWith('packages/a'))).toBe(false);
      expect(expected).toEqual(expect.arrayContaining([expect.stringMatching(/^docs file 644 /), expect.stringMatching(/^src\/one\.js file 755 /), expect.stringMatching(/^src\/link link .* -> \.\.\/lib\.txt/)]));
    } finally {
      await room.dispose();
      await staging.stop();
    }
  });

  (owner ? it : it.skip)('a symlink the tree under test puts where a directory was is handed over itself: nothing outside the room changes owner', async () => {
    const { ws, dir } = await keptWorkspace(owner);
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'one.js'), 'not the room\'s\n');
    writeFileSync(join(outside, 'readme'), 'not the room\'s\n');
    const tree = await treeWith(ws, dir, { src: ['120000', outside], 'docs/readme': ['120000', join(outside, 'readme')] }, ['src/one.js', 'src/deep/two.js']);
    const staging = ws.prepareCleanRooms(owner);
    await staging.ready();
    const room = await ws.openCleanRoom(tree, owner);
    try {
      expect(room.timings.treeStaged).toBe(true);
      expect(lstatSync(join(room.dir, 'src')).isSymbolicLink()).toBe(true);
      expect(lstatSync(join(room.dir, 'src')).uid).toBe(owner!.uid);
      for (const path of [outside, join(outside, 'one.js'), join(outside, 'readme')]) expect(lstatSync(path).uid).toBe(process.getuid!());
    } finally {
      await room.dispose();
      await staging.stop();
    }
  });

  it('what one room\'s tests did to the staged directories never reaches the next room: each is staged anew from the kept state', async () => {
    const { ws, files } = await keptWorkspace(owner);
    const tree = await ws.treeHash();
    const staging = ws.prepareCleanRooms(owner);
    try {
      const first = await ws.openCleanRoom(tree, owner);
      expect(first.timings.staged).toBe(files);
      // As a test in the room may: plant a shim, delete a dependency's file, rename a directory.
      mkdirSync(join(first.dir, 'node_modules', '.bin'), { recursive: true });
      writeFileSync(join(first.dir, 'node_modules', '.bin', 'grep'), '#!/bin/sh\nexit 0\n');
      rmSync(join(first.dir, 'node_modules', 'dep', 'sub', 'x.js'));
      writeFileSync(join(first.dir, 'packages', 'a', 'node_modules', 'b', 'planted.js'), 'planted\n');
      await first.dispose();

      await staging.ready();
      const second = await ws.openCleanRoom(tree, owner);
      try {
        expect(second.timings.staged).toBe(files);
        expect(existsSync(join(second.dir, 'node_modules', '.bin', 'grep'))).toBe(false);
        expect(existsSync(join(second.dir, 'packages', 'a', 'node_modules', 'b', 'planted.js'))).toBe(false);
        expect(readFileSync(join(second.dir, 'node_modules', 'dep', 'sub', 'x.js'), 'utf8')).toBe('x\n');
      } finally {
        await second.dispose();
      }
    } finally {
      await staging.stop();
    }
  });

  it('the tree wins: a kept root the tree under test also has is merged entry by entry, never renamed over it', async () => {
    const { ws, dir } = await keptWorkspace(owner);
    // The model's tree holds a file inside a kept root, and a kept file root, each with its own content.
    const tree = await treeWith(ws, dir, { 'node_modules/dep/index.js': ['100644', 'the tree\'s own\n'], 'setup-out.txt': ['100644', 'the tree\'s own\n'] });
    const staging = ws.prepareCleanRooms(owner);
    await staging.ready();
    const room = await ws.openCleanRoom(tree, owner);
    try {
      // packages/a/node_modules came staged (1 file); node_modules gave what the tree lacks (.bin/dep, dep/sub/x.js); setup-out.txt is the tree's.
      expect(room.timings).toMatchObject({ files: 3, staged: 1, treeStaged: true });
      // The tree wrote inside node_modules (a directory setup installed); setup-out.txt is a file of its own.
      expect(room.setupDirsInTree).toEqual(['node_modules']);
      expect(readFileSync(join(room.dir, 'setup-out.txt'), 'utf8')).toBe('the tree\'s own\n');
      expect(readFileSync(join(room.dir, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('the tree\'s own\n');
      expect(readFileSync(join(room.dir, 'node_modules', 'dep', 'sub', 'x.js'), 'utf8')).toBe('x\n');
      expect(lstatSync(join(room.dir, 'node_modules', '.bin', 'dep')).isSymbolicLink()).toBe(true);
      expect(readFileSync(join(room.dir, 'packages', 'a', 'node_modules', 'b', 'i.js'), 'utf8')).toBe('b\n');
    } finally {
      await room.dispose();
      await staging.stop();
    }
  });

  it('a staging this workspace did not make (another process, a crash) is never used, and one for another owner is not either', async () => {
    const { ws, dir, files } = await keptWorkspace(owner);
    const tree = await ws.treeHash();
    const stagingDir = join(dir, 'state', 'next-room');
    mkdirSync(join(stagingDir, 'kept', 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(stagingDir, 'kept', 'node_modules', '.bin', 'grep'), 'planted\n');
    mkdirSync(join(stagingDir, 'room'), { recursive: true });
    writeFileSync(join(stagingDir, 'room', 'lib.txt'), 'planted\n');
    const resumed = await GitWorkspace.open({ root: ws.root, baseCommit: ws.baseCommit, stateDir: join(dir, 'state') });
    const plain = await resumed.openCleanRoom(tree, owner);
    expect(plain.timings).toMatchObject({ files, staged: 0, treeStaged: false });
    expect(existsSync(join(plain.dir, 'node_modules', '.bin', 'grep'))).toBe(false);
    expect(readFileSync(join(plain.dir, 'lib.txt'), 'utf8')).toBe('broken\n');
    await plain.dispose();

    const staging = resumed.prepareCleanRooms(owner);
    await staging.ready();
    expect(existsSync(join(stagingDir, 'kept', 'node_modules', '.bin', 'grep'))).toBe(false);
    expect(readFileSync(join(stagingDir, 'room', 'lib.txt'), 'utf8')).toBe('broken\n');
    expect(statSync(stagingDir).mode & 0o777).toBe(0o700);
    const other = await resumed.openCleanRoom(tree, { uid: 54_322, gid: 54_322 });
    expect(other.timings).toMatchObject({ staged: 0, treeStaged: false });
    await other.dispose();
    await staging.stop();
  });

  it('a room that cannot be made (a tree the object store lacks) fails as before, and the next room is staged again', async () => {
    const { ws, files } = await keptWorkspace(owner);
    const staging = ws.prepareCleanRooms(owner);
    try {
      await staging.ready();
      await expect(ws.openCleanRoom('0'.repeat(40), owner)).rejects.toThrow(/read-tree/);
      expect(await staging.ready()).toMatchObject({ keptFiles: files });
      const room = await ws.openCleanRoom(await ws.treeHash(), owner);
      expect(room.timings).toMatchObject({ files, staged: files, treeStaged: true });
      await room.dispose();
    } finally {
      await staging.stop();
    }
  });

  it('stop removes what is staged; rooms after it restore entry by entry', async () => {
    const { ws, dir, files } = await keptWorkspace(owner);
    const tree = await ws.treeHash();
    const staging = ws.prepareCleanRooms(owner);
    await staging.stop();
    expect(readdirSync(join(dir, 'state')).filter((name) => name.startsWith('next-room'))).toEqual([]);
    expect(await staging.ready()).toBeNull();
    const room = await ws.openCleanRoom(tree, owner);
    expect(room.timings).toMatchObject({ files, staged: 0, treeStaged: false });
    await room.dispose();
    expect(readdirSync(join(dir, 'state')).filter((name) => name.startsWith('next-room'))).toEqual([]);
  });
});

const shm = '/dev/shm';
const otherFs = existsSync(shm) && statSync(shm).dev !== statSync(temp.make('gf-dev-')).dev;
(otherFs ? it : it.skip)('a staging on another file system than the room is restored entry by entry (no rename across file systems)', () => {
  const dir = temp.make('gf-exdev-');
  const from = join(dir, 'kept');
  mkdirSync(join(from, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(from, 'node_modules', 'dep', 'index.js'), 'x\n');
  const staged = mkdtempSync(join(shm, 'gf-staged-'));
  try {
    const files = stageKept({ from, dir: join(staged, 's'), roots: ['node_modules'], link: false, owner: null });
    mkdirSync(join(dir, 'room'));
    expect(restoreKept({ from, dir: join(dir, 'room'), roots: ['node_modules'], link: false, owner: null, staged: { dir: join(staged, 's'), files } })).toEqual({ files: 1, staged: 0, setupDirsInTree: [] });
    expect(readFileSync(join(dir, 'room', 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('x\n');
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
});

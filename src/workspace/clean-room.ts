import { copyFileSync, constants, chmodSync, linkSync, lchownSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileOwner } from '../sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../sandbox/ownership.js';
import { runIn, type RepoHandle } from './private-index.js';
import { notRealDirectory, readSetupState, setupStateTree, untrackedRoots } from './setup-state.js';

/**
 * The clean room of DESIGN §3.2: a fresh directory holding exactly one tree, from the object store
 * (no ignored file, nothing the agent wrote outside the tree), plus the dependency state this
 * fix's setup left before the agent acted (setup-state.ts). The verify command runs there, shown
 * at the worktree's own path (`mountAt`), and that run alone decides.
 */
export interface CleanRoom {
  /** The host directory. */
  readonly dir: string;
  /** Where sandboxed commands see it: the worktree's path. */
  readonly mountAt: string;
  /** How long materialising the tree and restoring the setup state took. */
  readonly timings: { materialiseMs: number; restoreMs: number; files: number };
  /** Removes the directory. */
  dispose(): void;
}

/** Where a worktree's clean room is made: beside it, so its parent lets the sandbox uid pass as the worktree's does. */
export function cleanRoomDir(worktree: string): string {
  return `${worktree}.clean-room`;
}

export interface CleanRoomOptions {
  repo: RepoHandle;
  tree: string;
  /** A host directory, replaced whole; its parent must let `owner` pass (o+x). */
  dir: string;
  /** The kept setup state (setup-state.ts), or null: the tree alone. */
  setupState: string | null;
  /** Who runs the tests: the room is theirs, except the setup state's files when linked. */
  owner: FileOwner | null;
  /** The `.git` file of the worktree (`gitdir: …`), so git works inside as it does there; null: none. */
  gitFile: string | null;
}

/**
 * Materialises `tree` (git checkout-index from a throwaway index, the repository's filters off)
 * and restores the setup state: hard links when the tests run as another uid than greenfix (the
 * kept files are greenfix's and not writable by others, so a test can replace but never change
 * them), a copy otherwise. The tree wins where both have a path; nothing is followed through a
 * symlink the tree holds.
 */
export async function openCleanRoom(o: CleanRoomOptions): Promise<CleanRoom> {
  const started = performance.now();
  rmSync(o.dir, { recursive: true, force: true });
  mkdirSync(o.dir, { mode: 0o755 });
  chmodSync(o.dir, 0o755);
  const index = `${o.dir}.index`;
  try {
    await runIn(o.repo, ['read-tree', o.tree], undefined, index);
    await runIn(o.repo, ['checkout-index', '--all', '--force', `--prefix=${o.dir}/`], undefined, index);
  } finally {
    rmSync(index, { force: true });
  }
  if (o.gitFile !== null) writeFileSync(join(o.dir, '.git'), o.gitFile);
  await prepareWorkspaceOwnership(o.dir, o.owner);
  const materialised = performance.now();
  const link = o.owner !== null && o.owner.uid !== process.getuid?.();
  let files = 0;
  const manifest = o.setupState ? readSetupState(o.setupState) : null;
  if (o.setupState && manifest) {
    const from = setupStateTree(o.setupState);
    for (const root of manifest.roots) {
      const parent = dirname(root);
      if (parent !== '.' && notRealDirectory(o.dir, parent)) continue;
      files += restore(join(from, root), join(o.dir, root), link, o.owner);
    }
  }
  const done = performance.now();
  return {
    dir: o.dir,
    mountAt: o.repo.root,
    timings: { materialiseMs: materialised - started, restoreMs: done - materialised, files },
    dispose: () => rmSync(o.dir, { recursive: true, force: true }),
  };
}

/**
 * Restores one kept entry into the room; returns the files placed. Where the room has the path
 * already, the tree's entry wins; below a directory the room did not have, nothing can be in the
 * way, so nothing is looked up there (the restore is one syscall per entry).
 */
function restore(src: string, dst: string, link: boolean, owner: FileOwner | null, fresh = false): number {
  const st = lstatSync(src);
  const existing = fresh ? null : lstatOrNull(dst);
  if (st.isDirectory()) {
    if (existing && !existing.isDirectory()) return 0;
    if (!existing) {
      mkdirSync(dst, { mode: st.mode & 0o755 });
      if (owner) lchownSync(dst, owner.uid, owner.gid);
    }
    return restoreChildren(src, dst, link, owner, !existing);
  }
  if (existing) return 0;
  place(src, dst, st.isSymbolicLink() ? 'symlink' : 'file', st.mode, link, owner);
  return 1;
}

function restoreChildren(src: string, dst: string, link: boolean, owner: FileOwner | null, fresh: boolean): number {
  let files = 0;
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    const from = join(src, entry.name);
    const to = join(dst, entry.name);
    if (!fresh || entry.isDirectory() || !link) {
      files += restore(from, to, link, owner, fresh);
      continue;
    }
    // A fresh directory, linking: the entry's type is known from the listing, nothing is in the way.
    if (entry.isSymbolicLink()) place(from, to, 'symlink', 0, link, owner);
    else linkSync(from, to);
    files += 1;
  }
  return files;
}

function place(src: string, dst: string, kind: 'file' | 'symlink', mode: number, link: boolean, owner: FileOwner | null): void {
  if (kind === 'symlink') {
    symlinkSync(readlinkSync(src), dst);
    if (owner) lchownSync(dst, owner.uid, owner.gid);
  } else if (link) {
    linkSync(src, dst);
  } else {
    copyFileSync(src, dst, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    chmodSync(dst, mode & 0o755);
    if (owner) lchownSync(dst, owner.uid, owner.gid);
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * What the worktree holds outside `tree` that the clean room would not give the tests: paths the
 * tree lacks that setup did not leave, or left with another size or type. For the model, when its
 * run passed and the clean room's did not ("your run read ignored files: …").
 */
export async function outsideTree(repo: RepoHandle, tree: string, setupState: string | null, indexFile: string): Promise<string[]> {
  const kept = setupState ? setupStateTree(setupState) : null;
  const paths = await untrackedRoots(repo, tree, indexFile, false);
  const differs: string[] = [];
  for (const path of paths.sort()) {
    const here = lstatOrNull(join(repo.root, path));
    const there = kept ? lstatOrNull(join(kept, path)) : null;
    if (!here) continue;
    if (!there) differs.push(`${path} (not made by setup)`);
    else if ((here.mode & constants.S_IFMT) !== (there.mode & constants.S_IFMT) || (here.isFile() && here.size !== there.size)) differs.push(`${path} (changed since setup)`);
  }
  return differs;
}

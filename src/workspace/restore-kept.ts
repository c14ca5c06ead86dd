import { chmodSync, constants, copyFileSync, lchownSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, symlinkSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileOwner } from '../sandbox/ownership.js';
import { notRealDirectory } from './real-directory.js';

export interface RestoreKeptOptions {
  /** The kept setup state's tree (setup-state.ts `setupStateTree`). */
  from: string;
  /** The clean room. */
  dir: string;
  /** The kept roots (the setup state's manifest). */
  roots: readonly string[];
  /** Hard links (the tests run as another uid than greenfix: `linksKept`) or copies. */
  link: boolean;
  owner: FileOwner | null;
  /**
   * The same roots placed ahead for this room alone (`stageKept`, same `link` and `owner`): a root
   * the room does not have is renamed from there, one syscall however many files it holds.
   */
  staged?: StagedKept;
}

/** A staging directory `stageKept` filled, and the files it placed under each root. */
export interface StagedKept {
  dir: string;
  files: Readonly<Record<string, number>>;
}

/** Whether the kept files are hard-linked into a room of `owner` rather than copied: greenfix's own files, read-only to the tests' uid. */
export function linksKept(owner: FileOwner | null): boolean {
  return owner !== null && owner.uid !== process.getuid?.();
}

/** What restoreKept placed: the files, how many of them came staged, and the kept directories the tree already had paths in. */
export interface KeptPlaced {
  files: number;
  staged: number;
  /** Directory roots setup installed (node_modules, .venv) that the tree under test has paths inside: the change wrote there. */
  setupDirsInTree: string[];
}

/**
 * Puts the kept setup state into a clean room (clean-room.ts). A root whose parent in the room is
 * not a real directory is skipped: nothing is followed through a symlink the tree holds.
 * Synchronous: called on the tree thread (tree-work.ts).
 */
export function restoreKept(o: RestoreKeptOptions): KeptPlaced {
  const placed: KeptPlaced = { files: 0, staged: 0, setupDirsInTree: [] };
  for (const root of o.roots) {
    const parent = dirname(root);
    if (parent !== '.' && notRealDirectory(o.dir, parent)) continue;
    const dst = join(o.dir, root);
    const ahead = o.staged?.files[root];
    const inTree = lstatOrNull(dst) !== null;
    if (o.staged && ahead !== undefined && !inTree && moved(join(o.staged.dir, root), dst)) {
      placed.files += ahead;
      placed.staged += ahead;
      continue;
    }
    if (inTree && lstatSync(join(o.from, root)).isDirectory()) placed.setupDirsInTree.push(root);
    placed.files += restore(join(o.from, root), dst, o.link, o.owner);
  }
  return placed;
}

/**
 * Places the kept roots in `dir` (made here, 0700, so only greenfix passes) exactly as
 * `restoreKept` would place them in an empty room — directories made and handed to `owner`, files
 * linked or copied — for one room to take by rename (`staged`). Returns the files under each root.
 * `dir` must be a directory no sandbox binds: what is staged there reaches the tests unchecked.
 */
export function stageKept(o: Omit<RestoreKeptOptions, 'staged'>): Record<string, number> {
  mkdirSync(o.dir, { mode: 0o700 });
  chmodSync(o.dir, 0o700);
  const files: Record<string, number> = {};
  for (const root of o.roots) {
    mkdirSync(join(o.dir, dirname(root)), { recursive: true, mode: 0o700 });
    files[root] = restore(join(o.from, root), join(o.dir, root), o.link, o.owner, true);
  }
  return files;
}

/** Renames `src` to `dst`; false when they are on different file systems or `src` is gone (the caller restores entry by entry). */
function moved(src: string, dst: string): boolean {
  try {
    renameSync(src, dst);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EXDEV' || code === 'ENOENT') return false;
    throw error;
  }
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

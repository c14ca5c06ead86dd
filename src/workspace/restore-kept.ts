import { chmodSync, constants, copyFileSync, lchownSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, type Stats } from 'node:fs';
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
  /** Hard links (the tests run as another uid than greenfix) or copies. */
  link: boolean;
  owner: FileOwner | null;
}

/**
 * Puts the kept setup state into a clean room (clean-room.ts); returns the files placed. A root
 * whose parent in the room is not a real directory is skipped: nothing is followed through a
 * symlink the tree holds. Synchronous: called on the tree thread (tree-work.ts).
 */
export function restoreKept(o: RestoreKeptOptions): number {
  let files = 0;
  for (const root of o.roots) {
    const parent = dirname(root);
    if (parent !== '.' && notRealDirectory(o.dir, parent)) continue;
    files += restore(join(o.from, root), join(o.dir, root), o.link, o.owner);
  }
  return files;
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

import { chmodSync, constants, copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** How much of a configuration directory is copied at most; past it the directory stays a bind. */
export interface CopyBudget {
  entries: number;
  bytes: number;
}

/** An /etc directory (fonts, alternatives, java-17-openjdk…) holds a few hundred entries and well under a megabyte. */
export const CONFIG_TREE_BUDGET: CopyBudget = { entries: 5_000, bytes: 16 * 1024 * 1024 };

/**
 * Copies the directory `source` to `target` (which must not exist) as bwrap shows a bind of it:
 * files with their permission bits (never set-id: the copies are greenfix's), directories too
 * (plus the owner's), 
 * symlinks as the same links, not followed. Returns false — and leaves nothing at `target` —
 * when an entry is anything else (a socket, a device), cannot be read, or the tree is larger
 * than `budget`: the caller binds the host's directory instead.
 */
export function copyConfigTree(source: string, target: string, budget: CopyBudget = CONFIG_TREE_BUDGET): boolean {
  const left = { ...budget };
  try {
    copyEntry(source, target, left);
    return true;
  } catch {
    rmSync(target, { recursive: true, force: true });
    return false;
  }
}

function copyEntry(source: string, target: string, left: CopyBudget): void {
  const st = lstatSync(source);
  left.entries -= 1;
  if (left.entries < 0) throw new Error('too many entries');
  const mode = st.mode & 0o777;
  if (st.isSymbolicLink()) {
    symlinkSync(readlinkSync(source), target);
  } else if (st.isFile()) {
    left.bytes -= st.size;
    if (left.bytes < 0) throw new Error('too large');
    copyFileSync(source, target, constants.COPYFILE_EXCL);
    chmodSync(target, mode);
  } else if (st.isDirectory()) {
    mkdirSync(target, { mode: 0o700 });
    for (const name of readdirSync(source)) copyEntry(join(source, name), join(target, name), left);
    // Owner bits kept open, so the view can be removed without root (the copy is greenfix's, mounted read-only).
    chmodSync(target, mode | 0o700);
  } else {
    throw new Error(`${source} is neither a file, a directory nor a symlink`);
  }
}

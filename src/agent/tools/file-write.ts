import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export type FileOwner = { uid: number; gid: number } | null;

/** Creates the missing parents of `abs`, owned by `owner` so the sandbox user can write there too. */
export function ensureParents(abs: string, owner: FileOwner): void {
  const parent = dirname(abs);
  const firstCreated = mkdirSync(parent, { recursive: true });
  if (!firstCreated || !owner) return;
  let dir = firstCreated;
  chownSync(dir, owner.uid, owner.gid);
  for (const part of relative(firstCreated, parent).split(sep).filter(Boolean)) {
    dir = join(dir, part);
    chownSync(dir, owner.uid, owner.gid);
  }
}

/** Writes a file that must not exist yet (`wx`: never clobbers a file created meanwhile). */
export function createFile(abs: string, content: string, owner: FileOwner): void {
  ensureParents(abs, owner);
  writeFileSync(abs, content, { flag: 'wx' });
  if (owner) chownSync(abs, owner.uid, owner.gid);
}

/** Rewrites an existing file in place, so its mode, owner and hard links stay as they were. */
export function rewriteFile(abs: string, content: string): void {
  writeFileSync(abs, content);
}

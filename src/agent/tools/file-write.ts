import { chownSync, closeSync, constants, fstatSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
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

/**
 * Rewrites an existing file in place, so its mode, owner and hard links stay as they were. Opened
 * with O_NONBLOCK and fstat-checked: something other than a regular file is never written (nor
 * waited on), even if it replaced the file after it was read.
 */
export function rewriteFile(abs: string, content: string): void {
  const fd = openSync(abs, constants.O_WRONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${abs} is no longer a regular file: not written`);
    writeFileSync(fd, content);
    // Truncated after the check, not by O_TRUNC at open (which would act before it).
    ftruncateSync(fd, Buffer.byteLength(content));
  } finally {
    closeSync(fd);
  }
}

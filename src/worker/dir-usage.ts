import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The file operations the retention sweep needs; node's by default, a failing one in tests. */
export interface RetentionFs {
  /** Never follows a symlink (the link itself is described). */
  lstat(path: string): Promise<{ isDirectory(): boolean; isSymbolicLink(): boolean; mtimeMs: number; size: number }>;
  readdir(path: string): Promise<string[]>;
  /** Removes a directory tree; a symlink inside it is unlinked, never followed. */
  removeTree(path: string): Promise<void>;
}

export const nodeRetentionFs: RetentionFs = {
  lstat: (path) => lstat(path),
  readdir: (path) => readdir(path),
  removeTree: (path) => rm(path, { recursive: true, force: true }),
};

export interface DirUsage {
  /** The newest mtime of the directory and of everything under it (epoch ms). */
  newestMs: number;
  /** Bytes of everything under it, as lstat reports them. */
  bytes: number;
}

/**
 * Walks `dir` with lstat only: a symlink counts as the link itself and is never entered, so a
 * link in a job's worktree pointing outside the workdir is neither measured nor dated.
 */
export async function dirUsage(fs: RetentionFs, dir: string): Promise<DirUsage> {
  const usage: DirUsage = { newestMs: (await fs.lstat(dir)).mtimeMs, bytes: 0 };
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const name of await fs.readdir(current)) {
      const path = join(current, name);
      const stat = await fs.lstat(path);
      usage.newestMs = Math.max(usage.newestMs, stat.mtimeMs);
      usage.bytes += stat.size;
      if (stat.isDirectory() && !stat.isSymbolicLink()) pending.push(path);
    }
  }
  return usage;
}

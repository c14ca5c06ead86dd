import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FileOwner } from './ownership.js';

/** A directory on the way to a path that `owner` may not pass through (no search permission). */
export interface UnreachableDir {
  dir: string;
  /** Its permission bits (e.g. 0o700), or null when it cannot be stat'ed at all. */
  mode: number | null;
}

/**
 * The first directory, from `path` up to `/`, that `owner` cannot search; null when every one
 * lets it through. The same test as ownership.ts `isReachableBy`, naming the culprit so a refusal
 * can say exactly what to change.
 */
export function firstUnreachableDir(path: string, owner: FileOwner): UnreachableDir | null {
  let blocked: UnreachableDir | null = null;
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      const st = statSync(dir);
      const shift = st.uid === owner.uid ? 6 : st.gid === owner.gid ? 3 : 0;
      if (st.isDirectory() && ((st.mode >> shift) & 0o1) === 0) blocked = { dir, mode: st.mode & 0o7777 };
    } catch {
      blocked = { dir, mode: null };
    }
    if (dir === dirname(dir)) return blocked;
  }
}

/** "/root has mode 0700" (or "cannot be read"): what stops the sandbox's uids, in the refusal's words. */
export function unreachableText(blocked: UnreachableDir): string {
  return `${blocked.dir} ${blocked.mode === null ? 'cannot be read' : `has mode ${blocked.mode.toString(8).padStart(4, '0')}`}`;
}

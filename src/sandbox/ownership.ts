import { statSync } from 'node:fs';
import { dirname } from 'node:path';

export interface FileOwner {
  uid: number;
  gid: number;
}

/** nobody/nogroup on Debian-family systems: owns nothing else, so it can reach nothing else. */
export const SANDBOX_OWNER: FileOwner = { uid: 65534, gid: 65534 };

/**
 * Who one-off sandboxed commands run as (`Sandbox.run`; jobs lease their own uid, see `forJob`):
 * `SANDBOX_OWNER` when greenfix runs as root (it drops to that uid before bwrap), `null`
 * otherwise (commands run as the current user, who already owns the worktree).
 */
export function sandboxFileOwner(currentUid: number | undefined = process.getuid?.()): FileOwner | null {
  return currentUid === 0 ? SANDBOX_OWNER : null;
}

/**
 * Whether `owner` can reach `path`: search (x) permission on every directory above it, and on
 * `path` itself when it is a directory. bwrap binds as the sandbox uid, so an unreachable path
 * would otherwise fail inside bwrap with a cryptic message.
 */
export function isReachableBy(path: string, owner: FileOwner): boolean {
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      const st = statSync(dir);
      const shift = st.uid === owner.uid ? 6 : st.gid === owner.gid ? 3 : 0;
      if (st.isDirectory() && ((st.mode >> shift) & 0o1) === 0) return false;
    } catch {
      return false;
    }
    if (dir === dirname(dir)) return true;
  }
}

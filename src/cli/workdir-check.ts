import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import type { FileOwner } from '../sandbox/ownership.js';
import { firstUnreachableDir } from '../sandbox/unreachable-dir.js';

/**
 * Checked at startup (serve/worker and `greenfix fix`): job and run directories live under the
 * workdir, and the sandbox user (root drops to it) must pass through every directory above them
 * or the first sandboxed command fails. Makes the workdir (0711, greenfix's own: fixed here when it
 * is the only obstacle); returns the one sentence that says what to change, or null.
 */
export function workdirProblem(workdir: string, owner: FileOwner | null, variable = 'GREENFIX_WORKDIR'): string | null {
  if (!owner) return null;
  mkdirSync(workdir, { recursive: true, mode: 0o711 });
  let blocked = firstUnreachableDir(workdir, owner);
  if (blocked?.dir === workdir) {
    chmodSync(workdir, 0o711);
    blocked = firstUnreachableDir(workdir, owner);
  }
  if (!blocked) return null;
  const mode = blocked.mode === null ? 'unreadable' : `mode ${blocked.mode.toString(8).padStart(4, '0')}`;
  return (
    `the workdir ${workdir} is not reachable by the sandbox user (uid ${owner.uid}) because ${blocked.dir} (${mode}) has no o+x: ` +
    `run \`chmod o+x ${blocked.dir}\` (others may then pass through it, not list it) or set ${variable} to a directory whose every parent has o+x, such as /var/lib/greenfix`
  );
}

/**
 * The local CLI's workdir is its user's own: made 0700 (0711 for root, whose sandbox uid must pass
 * through to the worktrees, not list them), and refused when it is a symlink or another uid owns
 * it — the default `<tmpdir>/greenfix-<uid>` lies in a directory everyone may write, so anyone
 * could have made it first and would then read or plant in every run, dependency and baseline
 * cache. Returns the one sentence that says what to do, or null.
 */
export function ownWorkdirProblem(workdir: string, uid: number | undefined, variable = 'GREENFIX_WORKDIR'): string | null {
  if (uid === undefined) return null;
  const mode = uid === 0 ? 0o711 : 0o700;
  mkdirSync(workdir, { recursive: true, mode });
  const st = lstatSync(workdir);
  if (!st.isDirectory()) return `the workdir ${workdir} is a symlink or not a directory: remove it, or set ${variable} to a directory of your own`;
  if (st.uid !== uid) {
    return `the workdir ${workdir} belongs to uid ${st.uid}, not to you (uid ${uid}): remove it (\`rm -rf ${workdir}\`, as its owner or root) or set ${variable} to a directory of your own`;
  }
  if ((st.mode & 0o777) !== mode) chmodSync(workdir, mode);
  return null;
}

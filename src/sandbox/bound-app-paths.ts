import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isWithin } from './app-dirs.js';
import { probeSystemDirs } from './host-layout.js';

/** One of greenfix's own paths, named as the operator knows it ("GREENFIX_WORKDIR", "the .env file"). */
export interface AppPath {
  name: string;
  path: string;
}

/** The path after symlinks, for a path that may not exist yet: its nearest existing ancestor resolved. */
function resolved(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const parent = dirname(path);
  return parent === path ? path : join(resolved(parent), basename(path));
}

/**
 * The directories bound read-only, whole, into every sandbox: the system directories this host
 * has (`/usr`, `/bin`, `/lib`…; a merged-/usr symlink counts as its target) and the operator's
 * GREENFIX_SANDBOX_RO_PATHS.
 */
export function boundDirs(extraReadOnlyPaths: readonly string[], system = probeSystemDirs()): string[] {
  const dirs = system.map((e) => (e.kind === 'symlink' ? resolved(e.path) : e.path));
  return [...new Set([...dirs, ...extraReadOnlyPaths])];
}

/**
 * One sentence per app path inside a bound directory, naming both: sandboxed code could read what
 * lies there (a `.env` with the webhook secret and the API key, the private key, the queue, other
 * jobs' files). Compared after symlinks on both sides. Empty: none is.
 */
export function appPathsInBoundDirs(paths: readonly AppPath[], bound: readonly string[]): string[] {
  const dirs = bound.map((dir) => ({ dir, real: resolved(dir) }));
  const problems: string[] = [];
  for (const { name, path } of paths) {
    const real = resolved(path);
    const hit = dirs.find((d) => isWithin(real, d.real) || isWithin(path, d.dir));
    if (hit) {
      problems.push(
        `${name} ${path} is inside ${hit.dir}, which is bound read-only into the sandbox (sandboxed commands could read it): ` +
          'move it outside /usr, /bin, /sbin, /lib… and GREENFIX_SANDBOX_RO_PATHS',
      );
    }
  }
  return problems;
}

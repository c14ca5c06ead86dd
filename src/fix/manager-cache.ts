import { lstatSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { isReachableBy, type FileOwner } from '../sandbox/ownership.js';
import type { WritableBind } from '../sandbox/types.js';
import { DEFAULT_SANDBOX_PATH } from '../sandbox/environment.js';
import { runProcess } from '../util/run-process.js';
import { refDirName, type DepCacheScope } from '../workspace/dep-cache-scope.js';
import { DEFAULT_PACKAGE_CACHE_LIMITS, sweepPackageCaches, type PackageCacheLimits } from '../workspace/package-cache-sweep.js';

/** Where the package managers' caches appear inside the setup step's sandbox. */
export const MANAGER_CACHE_TARGET = '/var/cache/greenfix-packages';

/** Each manager's cache variable, pointed below the bind. */
const VARIABLES: Record<string, string> = {
  npm_config_cache: 'npm',
  npm_config_store_dir: 'pnpm-store',
  YARN_CACHE_FOLDER: 'yarn',
  PIP_CACHE_DIR: 'pip',
  GOMODCACHE: 'go-mod',
  CARGO_HOME: 'cargo',
};

export interface ManagerCache {
  bind: WritableBind;
  env: Record<string, string>;
}

/**
 * The package managers' own caches of one repository on this worker (`<dir>/<repo>`), bound
 * read-write into the setup step only, so a dependency-cache miss is still a warm install. One per
 * repository (choice): a shared one would let one repository's setup plant files (pip wheels are
 * not integrity-checked like npm's) that another repository's install picks up. Scoped by ref like
 * the dependency cache, but not shared downwards: a job on the default branch uses `<repo>`, a job
 * on any other ref `<repo>--ref-<hash>` of its own (starting cold), since a branch's setup writes
 * into the cache it is given and the default branch must never read that. Handed to the
 * sandbox uid before each setup (recursively when another uid had it: per-job uids). Undefined
 * when the sandbox uid cannot reach it (a parent without o+x): setup then runs with a cold cache.
 * Every cache is swept first (package-cache-sweep.ts: by age, per-repository cap, total cap);
 * while setup runs, what it adds counts against the job's disk cap (job-sandbox.ts).
 */
export async function prepareManagerCache(dir: string, scope: DepCacheScope, owner: FileOwner | null, limits: PackageCacheLimits = DEFAULT_PACKAGE_CACHE_LIMITS): Promise<ManagerCache | undefined> {
  const repo = scope.repo.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
  const source = join(dir, scope.ref === scope.defaultRef ? repo : `${repo}--${refDirName(scope.ref)}`);
  await sweepPackageCaches(dir, limits, Date.now());
  // The root may be passed through (0711: nothing listed), each repository's cache only by its uid.
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  mkdirSync(source, { recursive: true, mode: 0o700 });
  // Its time of use, for the sweep.
  const now = new Date();
  utimesSync(source, now, now);
  const st = lstatSync(source);
  if (owner && (st.uid !== owner.uid || st.gid !== owner.gid)) {
    const r = await runProcess({ argv: ['chown', '-R', '-h', `${owner.uid}:${owner.gid}`, source], cwd: '/', env: { PATH: DEFAULT_SANDBOX_PATH }, timeoutMs: 300_000 });
    if (r.exitCode !== 0) throw new Error(`chown of the package cache ${source} failed: ${r.stderr.trim().slice(0, 300)}`);
  }
  // The sandbox leaves out a bind its uid cannot reach; then the variables must not point there.
  if (owner && !isReachableBy(source, owner)) return undefined;
  const env = Object.fromEntries(Object.entries(VARIABLES).map(([name, sub]) => [name, `${MANAGER_CACHE_TARGET}/${sub}`]));
  return { bind: { source, target: MANAGER_CACHE_TARGET }, env };
}

import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { treeBytes } from '../sandbox/disk-watchdog.js';

/** The package managers' caches (`<workdir>/package-cache/<repo>[--ref-…]`): how far each may grow and stay. */
export interface PackageCacheLimits {
  /** One repository's (or ref's) cache past this is removed whole: it starts cold next time. */
  repoBytes: number;
  /** All of them together: the least recently used go first until the rest fit. */
  totalBytes: number;
  /** A cache no setup used for this long is removed. */
  maxAgeMs: number;
}

export const DEFAULT_PACKAGE_CACHE_LIMITS: PackageCacheLimits = {
  repoBytes: 2 * 1024 ** 3,
  totalBytes: 10 * 1024 ** 3,
  maxAgeMs: 30 * 24 * 3_600_000,
};

export interface PackageCacheSweep {
  removed: Array<{ name: string; bytes: number; why: 'age' | 'repository cap' | 'total cap' }>;
  keptBytes: number;
}

/**
 * Sweeps the package caches by age and size, as the dependency cache is swept: unused for
 * `maxAgeMs` (a cache's time of use is its directory's mtime, set when a setup is given it), past
 * the per-repository cap, then the least recently used past the total. Sizes are blocks on disk,
 * walked without following symlinks (what the setups wrote there is untrusted).
 */
export async function sweepPackageCaches(dir: string, limits: PackageCacheLimits, now: number): Promise<PackageCacheSweep> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { removed: [], keptBytes: 0 };
  }
  const entries: Array<{ name: string; used: number; bytes: number }> = [];
  for (const name of names) {
    const st = lstatSync(join(dir, name), { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue;
    entries.push({ name, used: st.mtimeMs, bytes: await treeBytes(join(dir, name)) });
  }
  const removed: PackageCacheSweep['removed'] = [];
  const remove = (e: (typeof entries)[number], why: PackageCacheSweep['removed'][number]['why']) => {
    rmSync(join(dir, e.name), { recursive: true, force: true });
    removed.push({ name: e.name, bytes: e.bytes, why });
  };
  let keptBytes = 0;
  for (const e of entries.sort((a, b) => b.used - a.used)) {
    if (now - e.used > limits.maxAgeMs) remove(e, 'age');
    else if (e.bytes > limits.repoBytes) remove(e, 'repository cap');
    else if (keptBytes + e.bytes > limits.totalBytes) remove(e, 'total cap');
    else keptBytes += e.bytes;
  }
  return { removed, keptBytes };
}

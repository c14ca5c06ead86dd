import { existsSync } from 'node:fs';
import { dirname, relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * greenfix's own directories, which the sandbox must never see (code, config, .env files):
 * the working directory and the installed package. `/` is never an app dir, even as cwd.
 */
export function defaultAppDirs(cwd: string = process.cwd(), moduleFile: string = fileURLToPath(import.meta.url)): string[] {
  const dirs = [cwd, packageRoot(dirname(moduleFile))].filter((d): d is string => d !== null && d !== '/');
  return [...new Set(dirs)];
}

/**
 * Why `dir` counts as one of greenfix's own directories, in words an operator can act on: the
 * working directory is where `greenfix serve` reads its `.env` (webhook secret, API key) and keeps
 * its default workdir `.greenfix` (queue, journals, mirrors); the other is the installed package.
 */
export function appDirReason(dir: string, cwd: string = process.cwd()): string {
  return dir === cwd
    ? `the directory greenfix was started in, where it reads its .env and keeps its default workdir .greenfix — start greenfix from another directory, or name a path outside it`
    : `greenfix's installed package (its code)`;
}

/** The nearest directory at or above `dir` holding a package.json. */
function packageRoot(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(`${d}/package.json`)) return d;
    if (d === dirname(d)) return null;
  }
}

/** True when `inner` is `outer` or lies below it. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when one of the two paths contains the other. */
export function overlaps(a: string, b: string): boolean {
  return isWithin(a, b) || isWithin(b, a);
}

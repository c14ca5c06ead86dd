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

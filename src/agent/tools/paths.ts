import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolRefusal } from './errors.js';

export interface ResolvedPath {
  /** Absolute path inside the workspace (not symlink-resolved). */
  abs: string;
  /** Path relative to the root, `/`-separated; "." for the root itself. */
  rel: string;
}

const isInside = (root: string, p: string): boolean => {
  const r = relative(root, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

const exists = (p: string): boolean => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * realpath of `p`, or of its nearest existing ancestor joined with the missing rest; null for a
 * dangling symlink (where it leads cannot be checked, so it is not followed).
 */
function realpathOfNearest(p: string): string | null {
  let existing = p;
  while (!exists(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  try {
    return join(realpathSync(existing), relative(existing, p));
  } catch {
    return null;
  }
}

/**
 * Resolves a model-given path inside the workspace, or refuses: absolute paths outside the root,
 * `..` escapes, symlinks that lead out, and git's internals (which would let a command rewrite
 * history or hooks behind the verification gate's back).
 */
export function resolveInWorkspace(root: string, input: string): ResolvedPath {
  const given = input.trim() === '' ? '.' : input.trim();
  const abs = resolve(root, given);
  if (!isInside(root, abs)) {
    throw new ToolRefusal('outside_workspace', `${input}: outside the workspace; use a path relative to the repository root`);
  }
  const rel = relative(root, abs).split(sep).join('/') || '.';
  if (rel.split('/').includes('.git')) {
    throw new ToolRefusal('git_internal', `${rel}: git internals are off limits`);
  }
  const realRoot = realpathSync(root);
  const real = realpathOfNearest(abs);
  if (real === null) throw new ToolRefusal('outside_workspace', `${rel}: a dangling symlink; not followed`);
  if (!isInside(realRoot, real)) {
    throw new ToolRefusal('outside_workspace', `${rel}: a symlink leads outside the workspace`);
  }
  return { abs, rel };
}

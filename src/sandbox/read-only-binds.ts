import { realpathSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';
import { isWithin, overlaps } from './app-dirs.js';
import { SandboxRequestError } from './errors.js';
import { isReachableBy, type FileOwner } from './ownership.js';
import type { ReadOnlyBind } from './types.js';

export interface BindPolicy {
  /** greenfix's own directories (code, config, `.env`): never bound, nor anything inside them. */
  appDirs: readonly string[];
  /**
   * Directories greenfix lays out itself (its workdir: mirrors, jobs): a bind inside one of them
   * is allowed even when an app dir holds it (the default workdir is `<cwd>/.greenfix`).
   */
  dataDirs: readonly string[];
  runAs: FileOwner | null;
}

/**
 * The binds of a request, checked against greenfix's own directories. They come from the host's
 * own state (never from the worktree), so a refusal here means a bug or a misconfiguration: it is
 * an error, not a silent skip. A source must be its own realpath (no symlink to swap), must not
 * contain an app dir, and must not lie inside one unless it also lies inside a data dir. A source
 * the sandbox uid cannot reach is left out (git inside then fails visibly, as without a view).
 */
export function checkReadOnlyBinds(binds: readonly ReadOnlyBind[], workspace: string, policy: BindPolicy): ReadOnlyBind[] {
  if (binds.length === 0) return [];
  const appDirs = policy.appDirs.flatMap(withRealpath);
  const dataDirs = policy.dataDirs.flatMap(withRealpath);
  const usable: ReadOnlyBind[] = [];
  for (const bind of binds) {
    const refuse = (why: string) => new SandboxRequestError('bind-refused', `read-only bind ${bind.source} → ${bind.target}: ${why}`);
    if (!isAbsolute(bind.source) || !isAbsolute(bind.target) || normalize(bind.target) !== bind.target || bind.target === '/') {
      throw refuse('source and target must be absolute, normalised paths below /');
    }
    let real: string;
    try {
      real = realpathSync(bind.source);
    } catch {
      throw refuse('the source does not exist');
    }
    if (real !== bind.source) throw refuse(`the source is reached through a symlink (${real})`);
    if (overlaps(bind.target, workspace)) throw refuse('the target overlaps the workspace');
    const contained = appDirs.find((app) => isWithin(app, real));
    if (contained) throw refuse(`it contains greenfix's own directory ${contained}`);
    const inside = appDirs.find((app) => isWithin(real, app));
    if (inside && !dataDirs.some((data) => isWithin(real, data) && !appDirs.some((app) => isWithin(app, data)))) {
      throw refuse(`it lies inside greenfix's own directory ${inside}`);
    }
    if (policy.runAs && !isReachableBy(real, policy.runAs)) continue;
    usable.push(bind);
  }
  return usable;
}

/** A directory as given and as its realpath (when it exists), so a symlinked spelling matches too. */
function withRealpath(dir: string): string[] {
  try {
    const real = realpathSync(dir);
    return real === dir ? [dir] : [dir, real];
  } catch {
    return [dir];
  }
}

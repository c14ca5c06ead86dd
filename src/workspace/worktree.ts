import { existsSync, realpathSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { git } from './git.js';
import { GitWorkspace } from './git-workspace.js';
import type { WorkspaceStateStore } from './workspace-state.js';

export interface AddWorktreeOptions {
  /** The repository (or mirror) the worktree belongs to. */
  repo: string;
  /** Where the worktree goes; must not exist yet, unless it is already this repo's worktree. */
  path: string;
  /** Any commit-ish; the worktree is detached there and it becomes the base commit. */
  ref: string;
  stateDir: string;
  /** Where the workspace keeps its state; default `workspace.json` in stateDir. */
  store?: WorkspaceStateStore;
}

/**
 * Checks `ref` out in a new detached worktree. A fresh worktree holds only tracked files (no
 * node_modules): the setup command installs dependencies. Calling it again for a worktree that
 * exists (a resumed job) reopens it instead of failing.
 */
export async function addWorktree(opts: AddWorktreeOptions): Promise<GitWorkspace> {
  const path = resolve(opts.path);
  const commit = (
    await git(['rev-parse', '--verify', '--end-of-options', `${opts.ref}^{commit}`], { cwd: opts.repo })
  ).trim();
  if (!(await isWorktreeOf(opts.repo, path))) {
    await git(['worktree', 'add', '--detach', '--', path, commit], { cwd: opts.repo });
  }
  return GitWorkspace.open({ root: path, baseCommit: commit, stateDir: opts.stateDir, ...(opts.store ? { store: opts.store } : {}) });
}

/** Removes the worktree and its files, whatever they contain, and forgets it in the repo. */
export async function removeWorktree(repo: string, path: string): Promise<void> {
  const target = resolve(path);
  if (await isWorktreeOf(repo, target)) {
    await git(['worktree', 'remove', '--force', '--force', '--', target], { cwd: repo });
  }
  rmSync(target, { recursive: true, force: true });
  await git(['worktree', 'prune'], { cwd: repo });
}

async function isWorktreeOf(repo: string, path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  const list = await git(['worktree', 'list', '--porcelain', '-z'], { cwd: repo });
  const real = realpathSync(path);
  return list
    .split('\0')
    .filter((field) => field.startsWith('worktree '))
    .some((field) => existsSync(field.slice(9)) && realpathSync(field.slice(9)) === real);
}

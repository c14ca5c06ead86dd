import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { cleanRoomDir } from './clean-room.js';
import { git } from './git.js';
import { commitFacts, GitWorkspace } from './git-workspace.js';
import type { ChangeFeed } from './change-feed.js';
import { neutralFilterEnv } from './neutral-filters.js';
import type { WorkspaceStateStore } from './workspace-state.js';

export interface AddWorktreeOptions {
  /** The repository (or mirror) the worktree belongs to. */
  repo: string;
  /** Where the worktree goes; must not exist yet, unless it is already this repo's worktree. */
  path: string;
  /** Any commit-ish; the worktree is detached there and it becomes the base commit. */
  ref: string;
  stateDir: string;
  /** Where the repository's object store must lie (realpath): `<workdir>/mirrors` for jobs. */
  objectsWithin?: string;
  /** Where the workspace keeps its state; default `workspace.json` in stateDir. */
  store?: WorkspaceStateStore;
  /** The tree hash's change feed (GitWorkspaceOptions.changeFeed); default none. */
  changeFeed?: (root: string) => ChangeFeed;
  /**
   * The repository's common dir (realpath), when the caller already asked git for it (`greenfix
   * fix` found the repository with it): the filter drivers are then read while the commit is resolved.
   */
  commonDir?: string;
}

/**
 * Checks `ref` out in a new detached worktree. A fresh worktree holds only tracked files (no
 * node_modules): the setup command installs dependencies. Calling it again for a worktree that
 * exists (a resumed job) reopens it instead of failing. The checkout runs no filter driver and no
 * hook (HOST_GIT_CONFIG, neutralFilterEnv). The worktree's git dir is found in the repository's
 * own bookkeeping, never by reading the worktree's `.git` file.
 */
export async function addWorktree(opts: AddWorktreeOptions): Promise<GitWorkspace> {
  const path = resolve(opts.path);
  const filters = opts.commonDir === undefined ? null : neutralFilterEnv(opts.commonDir, opts.repo);
  filters?.catch(() => undefined); // awaited below, or not needed (the worktree exists)
  const { commit, commonDir, objectFormat } = await commitFacts(opts.repo, opts.ref);
  const common = realpathSync(resolve(opts.repo, commonDir));
  let filterEnv: Record<string, string> | undefined;
  if (!(await isWorktreeOf(opts.repo, path))) {
    filterEnv = common === opts.commonDir && filters ? await filters : await neutralFilterEnv(common, opts.repo);
    await git(['worktree', 'add', '--detach', '--', path, commit], { cwd: opts.repo, env: filterEnv });
  }
  const gitDir = adminDirOf(common, path);
  return GitWorkspace.open({
    root: path,
    baseCommit: commit,
    stateDir: opts.stateDir,
    repository: { commonDir: common, objectFormat },
    ...(filterEnv ? { filterEnv } : {}),
    ...(opts.store ? { store: opts.store } : {}),
    ...(opts.changeFeed ? { changeFeed: opts.changeFeed } : {}),
    ...(gitDir ? { gitDir } : {}),
    ...(opts.objectsWithin === undefined ? {} : { objectsWithin: opts.objectsWithin }),
  });
}

/**
 * Removes the worktree and its files, whatever they contain (a `.git` file rewritten by the
 * sandbox included), then has the repository forget it: the directory goes first, and
 * `git worktree prune` drops every admin dir whose worktree no longer exists.
 */
export async function removeWorktree(repo: string, path: string): Promise<void> {
  await removeWorktreeFiles(path);
  await pruneWorktrees(repo);
}

/**
 * The first half of removeWorktree: the files only, off the event loop (libuv's threads), so a
 * large worktree's unlinks can overlap other work — `git worktree add` included, which a prune
 * must not: git marks a worktree it makes `locked` only after creating its admin dir, so a prune
 * in between would take the new one for a leftover. Prune once the new worktree exists.
 */
export async function removeWorktreeFiles(path: string): Promise<void> {
  await rm(resolve(path), { recursive: true, force: true });
  // A clean room a crash left behind (each verdict removes its own).
  await rm(cleanRoomDir(resolve(path)), { recursive: true, force: true });
}

/** `git worktree prune`: forgets every worktree whose directory is gone. */
export async function pruneWorktrees(repo: string): Promise<void> {
  await git(['worktree', 'prune'], { cwd: repo });
}

/** `<common>/worktrees/<name>` whose `gitdir` file names `<path>/.git`: the repository's record. */
function adminDirOf(common: string, path: string): string | null {
  const worktrees = join(common, 'worktrees');
  if (!existsSync(worktrees)) return null;
  const real = realpathSync(path);
  for (const name of readdirSync(worktrees)) {
    try {
      const dotGit = readFileSync(join(worktrees, name, 'gitdir'), 'utf8').trim();
      if (resolve(dotGit) === join(real, '.git') || resolve(dotGit) === join(path, '.git')) return join(worktrees, name);
    } catch {
      /* not a worktree entry */
    }
  }
  return null;
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

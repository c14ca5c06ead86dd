import { existsSync, realpathSync } from 'node:fs';
import { chmod, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { ReadOnlyBind } from '../sandbox/types.js';
import { git } from './git.js';

export interface SandboxGitViewOptions {
  /** The worktree root. */
  root: string;
  /** The worktree's git (admin) dir, pinned by the host: what the worktree's `.git` file names. */
  gitDir: string;
  baseCommit: string;
  /** A host-owned directory for the view (recreated). */
  viewDir: string;
  /** When given, the object store must realpath inside it (`<workdir>/mirrors` for jobs). */
  objectsWithin?: string;
  /**
   * What git said of the repository, asked with GIT_DIR=gitDir in root (`rev-parse --git-common-dir
   * --show-object-format`), when the caller asked already (GitWorkspace.open, with its base commit):
   * one process instead of three. Default: asked here.
   */
  repository?: { commonDir: string; objectFormat: string };
}

/** The repository's object store is not where greenfix's own state says it must be. */
export class GitViewError extends Error {
  override readonly name = 'GitViewError';
  constructor(readonly objects: string, readonly within: string) {
    super(`the git object store ${objects} is not inside ${within}: refusing to show it to the sandbox`);
  }
}

const isInside = (inner: string, outer: string): boolean => {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * What the sandbox sees of git, decided once on the host when the workspace is made: a minimal
 * git dir made here (HEAD at the base commit, a config with no remotes, filters or hooks, empty
 * refs, a copy of the worktree's index, objects through `info/alternates`) bound read-only where
 * the worktree's `.git` file points, plus the repository's object store, read-only. Nothing else
 * of the repository's git dir exists inside: not its config (remote URLs, maybe with
 * credentials), hooks, other worktrees' admin dirs or refs. `git status`, `git diff` and
 * `git log` work inside; a command that rewrites `.git` changes only its own view.
 * A worktree whose git dir lies inside it (a plain clone) needs no view: [].
 */
export async function makeSandboxGitView(opts: SandboxGitViewOptions): Promise<ReadOnlyBind[]> {
  if (isInside(opts.gitDir, opts.root)) return [];
  const env = { GIT_DIR: opts.gitDir };
  const commonDir = opts.repository ? realpathSync(resolve(opts.root, opts.repository.commonDir)) : await commonDirOf(opts.root, env);
  const objects = realpathSync(join(commonDir, 'objects'));
  if (opts.objectsWithin !== undefined && !isInside(objects, realpathSync(opts.objectsWithin))) {
    throw new GitViewError(objects, opts.objectsWithin);
  }
  const format = opts.repository?.objectFormat ?? (await git(['rev-parse', '--show-object-format'], { cwd: opts.root, env })).trim();

  // On libuv's threads: at a job's start, these file creations on the event loop held webhook answers behind this disk.
  await rm(opts.viewDir, { recursive: true, force: true });
  for (const dir of ['', 'refs', 'refs/heads', 'refs/tags', 'objects', 'objects/info']) {
    await mkdir(join(opts.viewDir, dir), { recursive: true });
    await chmod(join(opts.viewDir, dir), 0o755);
  }
  const config =
    `[core]\n\trepositoryformatversion = ${format === 'sha1' ? 0 : 1}\n\tfilemode = true\n\tbare = false\n` +
    (format === 'sha1' ? '' : `[extensions]\n\tobjectformat = ${format}\n`);
  const files: Array<[string, string]> = [
    ['HEAD', `${opts.baseCommit}\n`],
    ['config', config],
    ['objects/info/alternates', `${objects}\n`],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(opts.viewDir, name), text, { mode: 0o644 })));
  for (const [from, name] of [[join(opts.gitDir, 'index'), 'index'], [join(commonDir, 'shallow'), 'shallow']] as const) {
    if (existsSync(from)) {
      await copyFile(from, join(opts.viewDir, name));
      await chmod(join(opts.viewDir, name), 0o644);
    }
  }
  const view = realpathSync(opts.viewDir);
  return [
    { source: objects, target: objects },
    { source: view, target: opts.gitDir },
  ];
}

async function commonDirOf(cwd: string, env?: Record<string, string>): Promise<string> {
  const common = (await git(['rev-parse', '--git-common-dir'], { cwd, ...(env ? { env } : {}) })).trim();
  return realpathSync(resolve(cwd, common));
}

/** The object store of the repository at `repo` (realpath): what a view of it binds. */
export async function objectStoreOf(repo: string): Promise<string> {
  return realpathSync(join(await commonDirOf(repo), 'objects'));
}

import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareWorkspaceOwnership, type FileOwner } from '../sandbox/ownership.js';
import { git } from '../workspace/git.js';
import type { GitWorkspace } from '../workspace/git-workspace.js';
import { addWorktree, removeWorktree } from '../workspace/worktree.js';
import type { RunState } from '../run/run-state.js';
import { UsageError } from './exit-codes.js';
import { taskSlug } from './slug.js';

/** Where one local run keeps its worktree, journal and state (docs/decisions.md). */
export interface LocalRun {
  repo: string;
  slug: string;
  branch: string;
  dir: string;
  worktree: string;
  journal: string;
  state: string;
  stateDir: string;
  /** GREENFIX_WORKDIR (or its default): the baseline cache lives under it. */
  workdir: string;
}

/**
 * Runs live under GREENFIX_WORKDIR (default: <tmpdir>/greenfix-<uid>), one directory per repository
 * and task. Directories are 0711: the sandbox user may pass through to the worktree but list nothing.
 */
export async function locateRun(env: Record<string, string | undefined>, repoArg: string, task: string): Promise<LocalRun> {
  const repo = await repositoryRoot(repoArg);
  const workdir = env.GREENFIX_WORKDIR?.trim() || join(tmpdir(), `greenfix-${process.getuid?.() ?? 'user'}`);
  const slug = taskSlug(task);
  const repoKey = createHash('sha256').update(repo).digest('hex').slice(0, 8);
  const dir = join(workdir, 'runs', `${repoKey}-${slug}`);
  return {
    repo,
    slug,
    branch: `greenfix/${slug}`,
    dir,
    worktree: join(dir, 'worktree'),
    journal: join(dir, 'journal.jsonl'),
    state: join(dir, 'run.json'),
    stateDir: join(dir, 'index'),
    workdir,
  };
}

async function repositoryRoot(dir: string): Promise<string> {
  if (!existsSync(dir)) throw new UsageError(`--repo ${dir} does not exist`);
  try {
    return (await git(['rev-parse', '--show-toplevel'], { cwd: dir })).trim();
  } catch {
    throw new UsageError(`--repo ${dir} is not a git repository (or has no work tree)`);
  }
}

/**
 * A fresh run (`saved` null) replaces an earlier one of the same task; a resumed one continues the
 * saved state, which must exist.
 */
export async function openRunWorkspace(run: LocalRun, saved: RunState | null, resume: boolean, owner: FileOwner | null): Promise<GitWorkspace> {
  if (resume && !saved) throw new UsageError(`nothing to resume: no interrupted run of this task in ${run.dir}`);
  if (!resume && existsSync(run.dir)) {
    await removeWorktree(run.repo, run.worktree);
    rmSync(run.dir, { recursive: true, force: true });
  }
  for (const d of [join(run.dir, '..', '..'), join(run.dir, '..'), run.dir]) {
    mkdirSync(d, { recursive: true });
    chmodSync(d, 0o711);
  }
  const fresh = !existsSync(run.worktree);
  const workspace = await addWorktree({ repo: run.repo, path: run.worktree, ref: saved?.baseCommit ?? 'HEAD', stateDir: run.stateDir });
  if (fresh) await prepareWorkspaceOwnership(run.worktree, owner);
  return workspace;
}

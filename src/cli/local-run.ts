import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hasCommits, writeEmptyBase } from '../workspace/empty-base.js';
import { git } from '../workspace/git.js';
import type { GitWorkspace } from '../workspace/git-workspace.js';
import { addWorktree, removeWorktree } from '../workspace/worktree.js';
import { openChangeFeed } from '../workspace/inotify-feed.js';
import * as z from 'zod';
import { StateFile } from '../fix/state-file.js';
import { UsageError } from './exit-codes.js';
import { latestRunNumber, withRunNumber } from './run-numbers.js';
import { taskSlug } from './slug.js';
import { localWorkdir } from './local-workdir.js';
import { ownWorkdirProblem } from './workdir-check.js';

/** Where one local run keeps its worktree, journal and state (docs/decisions.md). */
export interface LocalRun {
  /** GREENFIX_WORKDIR (or its default); runs live in its `runs/`. */
  workdir: string;
  repo: string;
  /** The repository's object store (realpath), as locateRun found it with the repository (local-sandbox.ts localDataDirs). */
  objectStore?: string;
  /** The repository's common dir (realpath), found with it: the worktree's filter drivers are read while its commit resolves (addWorktree). */
  commonDir?: string;
  /** `<repo hash>-<task slug>`: every run of this task in this repository. */
  runKey: string;
  /** The task's slug (slug.ts); `slug` adds the run's number from the second run on. */
  taskSlug: string;
  /** 1 for the first run of a task, 2 for the next… */
  number: number;
  slug: string;
  branch: string;
  dir: string;
  worktree: string;
  journal: string;
  state: string;
  stateDir: string;
}

/**
 * Runs live under GREENFIX_WORKDIR (default: <tmpdir>/greenfix-<uid>), one directory per run:
 * `runs/<repo>-<slug>`, then `-2`, `-3`… for the same task again (run-numbers.ts). This is the
 * latest run of the task (`--resume` continues it; the first one when there is none yet); a fresh run
 * takes `nextRun`. The workdir must be the user's own (workdir-check.ts `ownWorkdirProblem`), 0700
 * (0711 as root); directories below are 0711: the sandbox user may pass through to the worktree but list nothing.
 */
export async function locateRun(env: Record<string, string | undefined>, repoArg: string, task: string, init = false): Promise<LocalRun> {
  const workdir = localWorkdir(env);
  const foreign = ownWorkdirProblem(workdir, process.getuid?.());
  if (foreign) throw new UsageError(foreign);
  const found = await repositoryRoot(repoArg, init);
  const slug = taskSlug(task);
  const repoKey = createHash('sha256').update(found.repo).digest('hex').slice(0, 8);
  const runs = join(workdir, 'runs');
  return runAt(workdir, found, runs, `${repoKey}-${slug}`, slug, latestRunNumber(runs, `${repoKey}-${slug}`));
}

/** The run after `run` for the same task: its own directory and branch (suffix -2, -3…). */
export function nextRun(run: LocalRun): LocalRun {
  const runs = join(run.workdir, 'runs');
  return runAt(run.workdir, run, runs, run.runKey, run.taskSlug, latestRunNumber(runs, run.runKey) + 1);
}

function runAt(workdir: string, found: FoundRepository, runs: string, runKey: string, taskSlugText: string, n: number): LocalRun {
  const number = Math.max(n, 1);
  const slug = withRunNumber(taskSlugText, number);
  const dir = join(runs, withRunNumber(runKey, number));
  return {
    workdir,
    repo: found.repo,
    ...(found.objectStore === undefined ? {} : { objectStore: found.objectStore }),
    ...(found.commonDir === undefined ? {} : { commonDir: found.commonDir }),
    runKey,
    taskSlug: taskSlugText,
    number,
    slug,
    branch: `greenfix/${slug}`,
    dir,
    worktree: join(dir, 'worktree'),
    journal: join(dir, 'journal.jsonl'),
    state: join(dir, 'state.json'),
    stateDir: join(dir, 'index'),
  };
}

/** A repository as locateRun found it: its top level, and where they resolve, its common dir and object store. */
type FoundRepository = Pick<LocalRun, 'repo' | 'objectStore' | 'commonDir'>;

/** The repository's top level and object store; with `init`, a directory that is not a repository becomes one. */
async function repositoryRoot(dir: string, init: boolean): Promise<FoundRepository> {
  if (!existsSync(dir)) throw new UsageError(`--repo ${dir} does not exist`);
  try {
    return await rootAndObjects(dir);
  } catch {
    if (!init) throw new UsageError(`--repo ${dir} is not a git repository (or has no work tree); --init makes it one`);
  }
  await git(['init', '--quiet'], { cwd: dir });
  return rootAndObjects(dir);
}

/**
 * One rev-parse: the top level, then the common dir (relative to `dir`), whose objects/ is the
 * store; neither when that does not resolve (localDataDirs asks again, and says why).
 */
async function rootAndObjects(dir: string): Promise<FoundRepository> {
  const [repo = '', ...common] = (await git(['rev-parse', '--show-toplevel', '--git-common-dir'], { cwd: dir })).trim().split('\n');
  try {
    const commonDir = realpathSync(resolve(dir, common.join('\n')));
    return { repo, commonDir, objectStore: realpathSync(join(commonDir, 'objects')) };
  } catch {
    return { repo };
  }
}

/** A local run's state file: the same shape as a job's, without a `job` section. */
export type LocalState = StateFile<never>;

export function openLocalState(run: LocalRun): LocalState {
  return StateFile.open<never>(run.state, z.never());
}

/**
 * A fresh run (`resumeFrom` null) starts in an empty directory (`fix` gives each run its own,
 * `nextRun`; a chat session replaces the earlier session); a resumed one continues from its state, which the caller loaded (and checked it has a fix to resume).
 */
export async function openRunWorkspace(run: LocalRun, resumeFrom: LocalState | null): Promise<{ workspace: GitWorkspace; state: LocalState }> {
  if (!resumeFrom && existsSync(run.dir)) {
    await removeWorktree(run.repo, run.worktree);
    rmSync(run.dir, { recursive: true, force: true });
  }
  for (const d of [join(run.dir, '..', '..'), join(run.dir, '..'), run.dir]) {
    mkdirSync(d, { recursive: true });
    chmodSync(d, 0o711);
  }
  const state = resumeFrom ?? openLocalState(run);
  // Who owns the worktree is the sandbox's business (Sandbox.forJob hands it to the run's uid).
  // The change feed's helper lives as long as this process (it never keeps it alive).
  const open = (ref: string) =>
    addWorktree({ repo: run.repo, path: run.worktree, ref, stateDir: run.stateDir, store: state.workspaceStore(), changeFeed: openChangeFeed, ...(run.commonDir === undefined ? {} : { commonDir: run.commonDir }) });
  const saved = state.get('fix')?.baseCommit;
  // A repository without commits: the base is the empty tree (workspace/empty-base.ts). HEAD is
  // tried first (addWorktree resolves it before it makes anything); only when that fails is the
  // repository asked whether it has a commit: one git process fewer on the usual path.
  const workspace = saved !== undefined
    ? await open(saved)
    : await open('HEAD').catch(async (error: unknown) => {
        if (await hasCommits(run.repo)) throw error;
        return open(await writeEmptyBase(run.repo));
      });
  return { workspace, state };
}

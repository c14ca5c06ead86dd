import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { StateFile, StateFileError } from '../fix/state-file.js';
import { cleanRoomDir } from '../workspace/clean-room.js';
import { removeWorktree } from '../workspace/worktree.js';
import type { JobTarget } from './target.js';

/** Where a job keeps its worktree, journal and state: `<workdir>/jobs/<job id>/`. */
export interface JobFiles {
  dir: string;
  worktree: string;
  journal: string;
  /** The job's one state file (fix/state-file.ts): its target, the fix's phases, the workspace's record. */
  state: string;
  /** The private index of the tree hash. */
  index: string;
}

/** The parent of every job's directory; the retention sweep (worker/job-retention.ts) collects it. */
export function jobsDir(workdir: string): string {
  return join(workdir, 'jobs');
}

export function jobFiles(workdir: string, jobId: string): JobFiles {
  const dir = join(jobsDir(workdir), jobId.replace(/[^A-Za-z0-9_-]/g, '_'));
  return {
    dir,
    worktree: join(dir, 'worktree'),
    journal: join(dir, 'journal.jsonl'),
    state: join(dir, 'state.json'),
    index: join(dir, 'index'),
  };
}

/** 0711 all the way down: the sandbox user may pass through to the worktree, but list nothing. */
export function makeJobDir(workdir: string, files: JobFiles): void {
  for (const dir of [workdir, jobsDir(workdir), files.dir]) {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o711);
  }
}

/** The target decided at the start, so a resumed job pushes where the first attempt meant to. */
export const JobTargetSchema = z.strictObject({
  branch: z.string(),
  baseRef: z.string(),
  fetchRefs: z.array(z.string()),
  prBase: z.string(),
  protectedBranches: z.array(z.string()),
  fixesIssue: z.number().nullable(),
  title: z.string(),
  commandsFrom: z.string().optional(),
  threads: z
    .array(
      z.strictObject({
        commentId: z.number().int(),
        threadId: z.string(),
        path: z.string(),
        startLine: z.number().int().nullable(),
        line: z.number().int().nullable(),
      }),
    )
    .optional(),
  image: z.strictObject({ reference: z.string(), digest: z.string().regex(/^sha256:[a-f0-9]{64}$/) }).optional(),
}) satisfies z.ZodType<JobTarget>;

/** A job's state: its `job` section is the target. Loaded once per attempt (throws StateFileError when damaged). */
export type JobStateFile = StateFile<JobTarget>;

/** Files of the greenfix before one state file (run.json, target.json, index/workspace.json). */
const LEGACY_FILES = ['run.json', 'target.json'];

export function openJobState(files: JobFiles): JobStateFile {
  // Its worktree may have run untrusted code, and its pinned git dir is in a file this version
  // does not read: resuming it would trust the worktree's .git file. Refuse it (typed) instead.
  const legacy = LEGACY_FILES.map((name) => join(files.dir, name)).find((path) => existsSync(path));
  if (legacy && !existsSync(files.state)) throw new StateFileError(legacy, 'wrong_version', 'a job started by an older greenfix');
  return StateFile.open<JobTarget>(files.state, JobTargetSchema);
}

/**
 * When a job is over for good: its worktree leaves the mirror (`git worktree remove` + prune, so
 * the mirror does not collect stale entries) and its index goes. The journal and state files stay:
 * small, and what a person debugging the job reads, until the retention sweep deletes the directory.
 */
export async function removeJobFiles(files: JobFiles, gitDir: string): Promise<void> {
  if (existsSync(gitDir)) await removeWorktree(gitDir, files.worktree);
  rmSync(files.worktree, { recursive: true, force: true });
  rmSync(cleanRoomDir(files.worktree), { recursive: true, force: true });
  rmSync(files.index, { recursive: true, force: true });
}

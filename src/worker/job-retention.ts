import { join } from 'node:path';
import type { JobState } from '../queue/types.js';
import { dirUsage, nodeRetentionFs, type RetentionFs } from './dir-usage.js';
import { errorText } from '../util/error-text.js';

export interface RetentionDeps {
  /** GREENFIX_WORKDIR; the sweep looks at `<workdir>/jobs/*` only. */
  workdir: string;
  /** Where the jobs' directories live under the workdir (job/'s `jobsDir`; passed in: worker/ does not import job/). */
  jobsDir(workdir: string): string;
  /** The queue's state of a job (`queue.get(id)`), or null when the queue does not know it. */
  jobState(id: string): Promise<JobState | null>;
  now(): number;
  /** A finished job's directory goes once its newest file is at least this old; 0 = at once. */
  retentionMs: number;
  fs?: RetentionFs;
}

export interface SweepResult {
  removed: Array<{ id: string; bytes: number }>;
  /** Total bytes of the removed directories. */
  bytes: number;
  /** Directories left in place: queued or running jobs, or not old enough yet. */
  kept: number;
  /** Entries of `jobs/` that are not real directories (symlinks, files): never followed or touched. */
  skipped: string[];
  /** Directories that could not be read, asked about or removed; the next sweep tries again. */
  failed: Array<{ id: string; error: string }>;
}

/** Its journal is what resumes a queued (retrying) or running job after a crash. */
const ACTIVE: ReadonlySet<JobState> = new Set<JobState>(['queued', 'running']);

/**
 * Deletes the directories of finished jobs (succeeded, failed, cancelled) older than the retention,
 * and of jobs the queue no longer knows, once they are that old too. A directory's name is its job
 * id (ids are UUIDs, which `jobFiles` keeps as they are). Never throws: a problem with one
 * directory is reported in `failed` and the others are still swept.
 */
export async function sweepJobDirs(deps: RetentionDeps): Promise<SweepResult> {
  const fs = deps.fs ?? nodeRetentionFs;
  const result: SweepResult = { removed: [], bytes: 0, kept: 0, skipped: [], failed: [] };
  const root = deps.jobsDir(deps.workdir);
  let names: string[];
  try {
    const kind = await entryKind(fs, root);
    if (kind !== 'dir') return kind === 'missing' ? result : { ...result, skipped: [root] };
    names = await fs.readdir(root);
  } catch (error) {
    return { ...result, failed: [{ id: root, error: errorText(error) }] };
  }
  for (const id of names) {
    const dir = join(root, id);
    try {
      const kind = await entryKind(fs, dir);
      if (kind !== 'dir') {
        if (kind === 'other') result.skipped.push(id);
        continue;
      }
      const bytes = await expiredBytes(deps, fs, id, dir);
      if (bytes === null) {
        result.kept += 1;
        continue;
      }
      await fs.removeTree(dir);
      result.removed.push({ id, bytes });
      result.bytes += bytes;
    } catch (error) {
      result.failed.push({ id, error: errorText(error) });
    }
  }
  return result;
}

/** The directory's size when it is due for deletion, else null (active, or too young). */
async function expiredBytes(deps: RetentionDeps, fs: RetentionFs, id: string, dir: string): Promise<number | null> {
  const state = await deps.jobState(id);
  if (state !== null && ACTIVE.has(state)) return null;
  // Finished, or unknown to the queue: the same test, age since the last write.
  const usage = await dirUsage(fs, dir);
  return deps.now() - usage.newestMs >= deps.retentionMs ? usage.bytes : null;
}

/** `other`: a symlink (even to a directory), a file, a socket: not a job directory. */
async function entryKind(fs: RetentionFs, path: string): Promise<'dir' | 'other' | 'missing'> {
  try {
    const stat = await fs.lstat(path);
    return stat.isDirectory() && !stat.isSymbolicLink() ? 'dir' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

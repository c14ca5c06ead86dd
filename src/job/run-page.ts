import { existsSync } from 'node:fs';
import type { JobQueue } from '../queue/types.js';
import { readRunLog } from '../run-log/read-run-log.js';
import type { RunLog } from '../run-log/run-log.js';
import { redactText } from '../util/redact-text.js';
import { git } from '../workspace/git.js';
import { mirrorDir } from '../workspace/mirror.js';
import { jobFiles, openJobState } from './files.js';

export interface RunPageSourceDeps {
  workdir: string;
  queue: Pick<JobQueue, 'get'>;
  secrets: readonly string[];
}

export interface JobRunPageData {
  log: RunLog;
  /** The verified tree against the base, from the mirror (never from the worktree the sandbox wrote). */
  diff: string | null;
  live: boolean;
}

const DIFF_BYTES = 2 * 1024 * 1024;

/** What a job's run page shows, from its journal, state and mirror; null when this server has no such job. */
export async function loadJobRunPage(deps: RunPageSourceDeps, jobId: string): Promise<JobRunPageData | null> {
  const job = await deps.queue.get(jobId);
  const files = jobFiles(deps.workdir, jobId);
  if (!job && !existsSync(files.journal)) return null;
  const live = job?.state === 'queued' || job?.state === 'running';
  const log = readRunLog(files.journal, { secrets: deps.secrets });
  const base = existsSync(files.state) ? openJobState(files).get('fix')?.baseCommit : undefined;
  const gitDir = job ? mirrorDir(deps.workdir, job.request.repo.id) : null;
  let diff: string | null = null;
  if (log.verified && base && gitDir && existsSync(gitDir)) {
    diff = await git(['diff', '--no-color', '--no-ext-diff', base, log.verified.tree], { cwd: gitDir, maxOutputBytes: DIFF_BYTES })
      .then((text) => redactText(text, deps.secrets))
      .catch(() => null);
  }
  return { log, diff, live };
}

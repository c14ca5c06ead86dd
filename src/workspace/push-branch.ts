import { mirrorGit } from './mirror-health.js';
import { GitRemoteError, remoteGit, remoteRefSha } from './mirror-remote.js';

export interface PushBranchOptions {
  /** The mirror; the job's worktree shares its object store, so the commit is in it. */
  gitDir: string;
  cloneUrl: string;
  token: string;
  /** Short branch name, e.g. `greenfix/issue-12`. */
  branch: string;
  /** Full sha of the commit the branch must point to. */
  commit: string;
  /** greenfix pushes only below this prefix. */
  allowedPrefix: string;
  /** Never pushed to, whatever the prefix (the default branch). Short names. */
  protectedBranches: string[];
  timeoutMs?: number;
}

export type PushRefusedReason = 'not_greenfix_branch' | 'protected_branch' | 'invalid_branch';

/** greenfix refused to push: the branch is not its own to write. Nothing was sent. */
export class PushRefusedError extends Error {
  override readonly name = 'PushRefusedError';
  constructor(readonly reason: PushRefusedReason, readonly branch: string) {
    super(`refusing to push ${JSON.stringify(branch)}: ${reason}`);
  }
}

/** Someone else moved the branch between our read and our push; the lease kept their work. */
export class PushConflictError extends Error {
  override readonly name = 'PushConflictError';
  constructor(readonly branch: string, readonly expected: string | null, readonly actual: string | null) {
    super(`branch ${branch} moved while pushing: expected ${expected ?? '(absent)'}, found ${actual ?? '(absent)'}`);
  }
}

/**
 * Points the remote branch at `commit`. Idempotent: when the remote already has it (a job
 * resumed after a crash), nothing is pushed. Otherwise the push is forced (a retry replaces
 * greenfix's previous attempt) but leased on the sha just read, so a human's push in between is
 * never overwritten: it becomes a PushConflictError.
 */
/** The push as a dependency (the GitHub publisher's), so a process can wrap it. */
export type PushBranch = (opts: PushBranchOptions) => Promise<{ pushed: boolean; previous: string | null }>;

export async function pushBranch(opts: PushBranchOptions): Promise<{ pushed: boolean; previous: string | null }> {
  await assertPushable(opts);
  const ref = `refs/heads/${opts.branch}`;
  const remote = { gitDir: opts.gitDir, cloneUrl: opts.cloneUrl, token: opts.token, ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }) };
  const commit = (await mirrorGit(opts.gitDir, ['rev-parse', '--verify', '--end-of-options', `${opts.commit}^{commit}`])).trim();
  const previous = await remoteRefSha({ ...remote, ref });
  if (previous === commit) return { pushed: false, previous };
  try {
    await remoteGit(
      ['push', '--quiet', '--no-verify', `--force-with-lease=${ref}:${previous ?? ''}`, '--', opts.cloneUrl, `${commit}:${ref}`],
      { ...remote, operation: 'push' },
    );
  } catch (error) {
    if (!(error instanceof GitRemoteError) || error.kind !== 'rejected') throw error;
    // Decide from the remote's state, not git's wording: moved since our read means a conflict.
    const now = await remoteRefSha({ ...remote, ref });
    if (now === commit) return { pushed: false, previous };
    if (now !== previous) throw new PushConflictError(opts.branch, previous, now);
    throw error;
  }
  return { pushed: true, previous };
}

async function assertPushable(opts: PushBranchOptions): Promise<void> {
  const { branch, allowedPrefix } = opts;
  const valid = await mirrorGit(opts.gitDir, ['check-ref-format', '--branch', branch]).then(
    (out) => out.trim() === branch,
    () => false,
  );
  if (!valid || branch.startsWith('refs/')) throw new PushRefusedError('invalid_branch', branch);
  const protectedNames = opts.protectedBranches.map((b) => b.replace(/^refs\/heads\//, ''));
  if (protectedNames.includes(branch)) throw new PushRefusedError('protected_branch', branch);
  if (allowedPrefix === '' || !branch.startsWith(allowedPrefix) || branch === allowedPrefix) {
    throw new PushRefusedError('not_greenfix_branch', branch);
  }
}

import { join } from 'node:path';
import { GitError } from './git.js';
import { assertRemoteUrl } from './git-auth.js';
import { ensureMirror, hasCompleteRefs, mirrorGit, recreateMirror } from './mirror-health.js';
import { GitRemoteError, remoteGit } from './mirror-remote.js';

export interface SyncMirrorOptions {
  /** GREENFIX_WORKDIR: mirrors live in `<workdir>/mirrors/`. */
  workdir: string;
  /** GitHub's repository id: stable across renames and transfers, unlike owner/name. */
  repoId: number;
  /** The payload's `repository.clone_url` (GitHub Enterprise too); never with credentials in it. */
  cloneUrl: string;
  token: string;
  /** Full ref names to bring up to date, e.g. `refs/heads/main`, `refs/pull/12/head`. */
  refs: string[];
  timeoutMs?: number;
}

/** Where the bare mirror of a repository lives. */
export function mirrorDir(workdir: string, repoId: number): string {
  if (!Number.isSafeInteger(repoId) || repoId <= 0) throw new TypeError(`repoId must be a positive integer, got ${repoId}`);
  return join(workdir, 'mirrors', `${repoId}.git`);
}

/**
 * Brings the requested refs of the repository's bare mirror up to date, creating the mirror on
 * first use and re-creating it when it is broken. Fetches are incremental (only what the mirror
 * lacks is transferred). Callers run one sync per repository at a time: the queue's
 * one-job-per-repository rule guarantees it.
 */
export async function syncMirror(opts: SyncMirrorOptions): Promise<{ gitDir: string }> {
  const gitDir = mirrorDir(opts.workdir, opts.repoId);
  assertRemoteUrl(opts.cloneUrl);
  if (opts.refs.length === 0) throw new TypeError('syncMirror: no refs to fetch');
  await ensureMirror(gitDir);
  for (const ref of opts.refs) await assertFullRef(gitDir, ref);
  if (await fetchComplete(gitDir, opts, false)) return { gitDir };
  // Damage the quick health check cannot see (a missing object under a ref, a truncated pack)
  // shows here: start again from an empty mirror, once.
  await recreateMirror(gitDir);
  if (await fetchComplete(gitDir, opts, true)) return { gitDir };
  throw new MirrorIncompleteError(gitDir, opts.refs);
}

/**
 * Fetches, then checks that every object the refs need for a checkout is present. False means
 * the mirror is damaged; with `final`, a failed fetch is thrown rather than reported as damage.
 */
async function fetchComplete(gitDir: string, opts: SyncMirrorOptions, final: boolean): Promise<boolean> {
  try {
    await fetchRefs(gitDir, opts);
  } catch (error) {
    // Only when the remote answers fine can the failure be the mirror's own fault.
    if (final || !(error instanceof GitRemoteError) || error.kind !== 'rejected') throw error;
    return false;
  }
  return hasCompleteRefs(gitDir, opts.refs);
}

/** Even a fresh mirror lacks objects the refs need: the remote itself is inconsistent. */
export class MirrorIncompleteError extends Error {
  override readonly name = 'MirrorIncompleteError';
  constructor(readonly gitDir: string, readonly refs: string[]) {
    super(`objects needed by ${refs.join(', ')} are missing from ${gitDir} after a fresh fetch`);
  }
}

function fetchRefs(gitDir: string, opts: SyncMirrorOptions): Promise<string> {
  // The URL is an argument of this one command: no remote is stored, FETCH_HEAD is not written.
  const refspecs = opts.refs.map((ref) => `+${ref}:${ref}`);
  return remoteGit(
    ['fetch', '--quiet', '--prune', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--', opts.cloneUrl, ...refspecs],
    { gitDir, cloneUrl: opts.cloneUrl, token: opts.token, operation: 'fetch', ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }) },
  );
}

/** A ref that is not in the mirror (never fetched, or gone upstream). */
export class RefNotFoundError extends Error {
  override readonly name = 'RefNotFoundError';
  constructor(readonly gitDir: string, readonly ref: string) {
    super(`${ref} is not in ${gitDir}`);
  }
}

/** The commit sha a ref of the mirror points to. */
export async function resolveRef(gitDir: string, ref: string): Promise<string> {
  try {
    return (await mirrorGit(gitDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch (error) {
    if (error instanceof GitError && error.kind === 'exit' && error.exitCode === 1) throw new RefNotFoundError(gitDir, ref);
    throw error;
  }
}

/** Only full, well-formed ref names become refspecs (no `+`, `:`, globs or options sneak in). */
async function assertFullRef(gitDir: string, ref: string): Promise<void> {
  const ok = ref.startsWith('refs/') && (await mirrorGit(gitDir, ['check-ref-format', ref]).then(() => true, () => false));
  if (!ok) throw new TypeError(`not a full ref name: ${JSON.stringify(ref)}`);
}

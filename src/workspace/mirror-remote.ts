import { git, GitError } from './git.js';
import { assertRemoteUrl, basicAuthValue, gitAuthEnv, redactGitError } from './git-auth.js';

export type RemoteOperation = 'fetch' | 'ls-remote' | 'push';

/**
 * Why talking to the remote failed, from the HTTP status the remote gives the same credentials:
 * `auth` 401 (bad or expired token), `forbidden` 403 (token lacks the permission), `not_found`
 * 404, `unreachable` (no HTTP answer), `server` (any other status), `timeout` (git ran out of
 * time), `rejected` (the remote answers fine, so git itself refused or failed: a lease, a hook, a
 * corrupt local repository).
 */
export type RemoteErrorKind = 'auth' | 'forbidden' | 'not_found' | 'unreachable' | 'server' | 'timeout' | 'rejected';

const TRANSIENT: ReadonlySet<RemoteErrorKind> = new Set(['unreachable', 'server', 'timeout']);

/** A git command against the remote failed. Never carries the token (it is redacted). */
export class GitRemoteError extends Error {
  override readonly name = 'GitRemoteError';
  constructor(
    readonly kind: RemoteErrorKind,
    readonly operation: RemoteOperation,
    /** The probe's HTTP status; null when the remote did not answer. */
    readonly status: number | null,
    /** The redacted git failure underneath. */
    readonly gitError: GitError,
  ) {
    super(`git ${operation} failed (${kind}${status === null ? '' : `, HTTP ${status}`}): ${gitError.stderr.trim().slice(0, 300)}`);
  }

  /** Worth retrying later with backoff; the other kinds need a person (token, permission, repo). */
  get transient(): boolean {
    return TRANSIENT.has(this.kind);
  }
}

export interface RemoteGitOptions {
  gitDir: string;
  cloneUrl: string;
  token: string;
  operation: RemoteOperation;
  timeoutMs?: number;
}

/**
 * Runs git with the token in its environment only (see gitAuthEnv) and the git dir pinned. A
 * failure becomes a GitRemoteError whose kind comes from an HTTP status, not from git's
 * (localised, unstable) wording.
 */
export async function remoteGit(args: string[], opts: RemoteGitOptions): Promise<string> {
  assertRemoteUrl(opts.cloneUrl);
  try {
    return await git(args, {
      cwd: opts.gitDir,
      env: { ...gitAuthEnv(opts.token), GIT_DIR: opts.gitDir },
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const redacted = redactGitError(error, opts.token);
    if (error.kind === 'timeout') throw new GitRemoteError('timeout', opts.operation, null, redacted);
    const { kind, status } = await probeRemote(opts.cloneUrl, opts.token, opts.operation);
    throw new GitRemoteError(kind, opts.operation, status, redacted);
  }
}

const PROBE_TIMEOUT_MS = 15_000;

/** Asks the smart-HTTP endpoint git just used, with the same header, what it thinks of us. */
async function probeRemote(
  cloneUrl: string,
  token: string,
  operation: RemoteOperation,
): Promise<{ kind: RemoteErrorKind; status: number | null }> {
  const service = operation === 'push' ? 'git-receive-pack' : 'git-upload-pack';
  const url = `${cloneUrl.replace(/\/+$/, '')}/info/refs?service=${service}`;
  let status: number;
  try {
    const response = await fetch(url, {
      headers: { Authorization: basicAuthValue(token) },
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    status = response.status;
    await response.body?.cancel();
  } catch {
    return { kind: 'unreachable', status: null };
  }
  return { kind: kindOfStatus(status), status };
}

function kindOfStatus(status: number): RemoteErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  return status >= 200 && status < 300 ? 'rejected' : 'server';
}

/** The sha `ref` has on the remote right now, or null when the remote has no such ref. */
export async function remoteRefSha(opts: Omit<RemoteGitOptions, 'operation'> & { ref: string }): Promise<string | null> {
  const out = await remoteGit(['ls-remote', '--', opts.cloneUrl, opts.ref], { ...opts, operation: 'ls-remote' });
  // ls-remote matches patterns by their tail; only the exact name counts.
  const line = out.split('\n').find((l) => l.split('\t')[1] === opts.ref);
  return line === undefined ? null : line.split('\t')[0]!;
}

/**
 * The one error type that leaves `src/github/`: callers branch on `kind` (and `status`), never on
 * an octokit message. Built from octokit's RequestError by status and the presence of a response.
 */
export type GitHubErrorKind = 'not_found' | 'forbidden' | 'rate_limited' | 'server' | 'validation' | 'network';

export class GitHubError extends Error {
  override readonly name = 'GitHubError';
  constructor(
    readonly kind: GitHubErrorKind,
    message: string,
    readonly status?: number,
    /** The wait GitHub asked for (`retry-after`, or the rate-limit reset), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** Worth another try after re-reading: the request may or may not have taken effect. */
  get transient(): boolean {
    return this.kind === 'server' || this.kind === 'rate_limited' || this.kind === 'network';
  }
}

interface RequestErrorLike {
  status: number;
  response?: { headers?: Record<string, string | number | undefined> };
}

function isRequestErrorLike(err: unknown): err is RequestErrorLike {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number';
}

/** `retry-after` seconds, else `x-ratelimit-reset` (epoch seconds) when nothing remains. */
export function retryAfterMs(headers: Record<string, string | number | undefined>, now: number): number | undefined {
  const after = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(after)) return Math.max(0, after * 1000);
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  }
  return undefined;
}

function kindOf(status: number, hasResponse: boolean, headers: Record<string, string | number | undefined>): GitHubErrorKind {
  if (!hasResponse) return 'network';
  if (status === 429) return 'rate_limited';
  if (status === 403 && (headers['retry-after'] !== undefined || String(headers['x-ratelimit-remaining']) === '0')) {
    return 'rate_limited';
  }
  if (status === 404 || status === 410) return 'not_found';
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 422 || status === 400 || status === 409) return 'validation';
  if (status >= 500) return 'server';
  return 'validation';
}

/**
 * Wraps anything octokit throws. A RequestError without a response is a network failure (octokit
 * reports those as status 500). The message names the endpoint, never headers or tokens.
 */
export function toGitHubError(err: unknown, what: string, now: number = Date.now()): GitHubError {
  if (err instanceof GitHubError) return err;
  if (!isRequestErrorLike(err)) {
    return new GitHubError('network', `${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const headers = err.response?.headers ?? {};
  const kind = kindOf(err.status, err.response !== undefined, headers);
  const status = kind === 'network' ? undefined : err.status;
  return new GitHubError(kind, `${what}: GitHub answered ${status ?? 'nothing (network error)'}`, status, retryAfterMs(headers, now));
}

/** Runs one octokit call and rethrows its failure as a GitHubError. */
export async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toGitHubError(err, what);
  }
}

import { GitHubError } from './errors.js';

export type Sleep = (ms: number) => Promise<void>;

export interface CreateOnceOptions<T> {
  /** Looks for what a create would make (by marker, head branch, external id). */
  find: () => Promise<T | null>;
  /** One POST, without octokit's retries (NO_RETRY); throws GitHubError. */
  create: () => Promise<T>;
  attempts: number;
  sleep: Sleep;
  /** Skip the read before the first create (when a create usually succeeds and 422s otherwise). */
  createFirst?: boolean;
  /** Wait before the next attempt when GitHub did not say; attempt is 1-based. */
  backoffMs?: (attempt: number) => number;
}

export type CreateOnceResult<T> = { found: T } | { created: T };

const defaultBackoff = (attempt: number): number => 1000 * 2 ** (attempt - 1);

/**
 * Find first, create, and after a transient failure find again before creating again: a create
 * answered with 5xx/429 or lost on the network may have happened anyway, so only a re-read can
 * tell whether a second POST would make a duplicate. Non-transient errors propagate at once.
 */
export async function createOnce<T>(options: CreateOnceOptions<T>): Promise<CreateOnceResult<T>> {
  const backoff = options.backoffMs ?? defaultBackoff;
  const attempts = Math.max(1, options.attempts);
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1 || options.createFirst !== true) {
      const existing = await options.find();
      if (existing !== null) return { found: existing };
    }
    try {
      return { created: await options.create() };
    } catch (err) {
      if (!(err instanceof GitHubError) || !err.transient || attempt >= attempts) throw err;
      await options.sleep(err.retryAfterMs ?? backoff(attempt));
    }
  }
}

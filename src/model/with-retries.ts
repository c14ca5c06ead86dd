import { ModelError } from './errors.js';
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';
import type { Sleep } from './sleep.js';

/** What the classifier decided about one failed attempt. */
export type Failure =
  | { transient: true; reason: string; status?: number; retryAfterMs?: number }
  | { transient: false; error: unknown };

export interface RetryDeps {
  sleep: Sleep;
  random: () => number;
}

/**
 * Runs `attempt` until it succeeds, a failure is permanent, the retries run out (→ ModelError
 * 'transient') or `signal` aborts (→ the signal's reason; an abort is never retried).
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => Failure,
  policy: RetryPolicy,
  deps: RetryDeps,
  signal?: AbortSignal,
): Promise<T> {
  for (let retry = 1; ; retry++) {
    signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const failure = classify(error);
      if (!failure.transient) throw failure.error;
      if (retry > policy.maxRetries) {
        throw new ModelError('transient', `the model endpoint still failed after ${retry} attempts: ${failure.reason}`, failure.status);
      }
      await deps.sleep(retryDelayMs(policy, retry, deps.random, failure.retryAfterMs), signal);
    }
  }
}

/** How hard to try before a transient failure becomes the caller's problem. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Ceiling of the first backoff; it doubles per retry. */
  baseDelayMs: number;
  /** No single wait is longer than this, whatever the server asks for. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, baseDelayMs: 1_000, maxDelayMs: 60_000 };

/** 408 timeout, 409 conflict (lock contention), 429 rate limit and every 5xx may succeed later. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Wait before retry number `retry` (1-based). The server's own hint wins (capped); otherwise
 * exponential backoff with full jitter, so many workers hitting one rate limit spread out
 * instead of retrying in lockstep.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, random: () => number, serverHintMs?: number): number {
  if (serverHintMs !== undefined) return Math.min(policy.maxDelayMs, serverHintMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

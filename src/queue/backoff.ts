/** Retry delays: exponential from `baseMs`, capped at `maxMs`. */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 30_000, maxMs: 30 * 60_000 };

/**
 * Delay before retrying after attempt `attempts` (1-based): base·2^(attempts−1), capped. No jitter:
 * jobs of one repository run one at a time anyway, so retries do not stampede, and a fixed delay
 * keeps the behaviour testable with an injected clock.
 */
export function backoffDelay(attempts: number, options: BackoffOptions): number {
  const exponent = Math.max(0, attempts - 1);
  // 2^exponent overflows to Infinity long before it matters; Math.min caps it either way.
  return Math.min(options.maxMs, options.baseMs * 2 ** exponent);
}

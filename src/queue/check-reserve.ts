import type { ReserveOptions } from './types.js';

/** Sums of floats: a budget that fits exactly must not fail by a rounding error. */
const EPSILON_USD = 1e-9;

export function fitsUnder(limitUsd: number, totalUsd: number): boolean {
  return totalUsd <= limitUsd + EPSILON_USD;
}

/** What both queues refuse before any read or write: amounts and times that are not numbers. */
export function checkReserve(options: ReserveOptions): void {
  if (!Number.isFinite(options.usd) || options.usd < 0) throw new RangeError(`a reservation must be a non-negative USD amount, got ${options.usd}`);
  for (const cap of options.caps) {
    if (!Number.isFinite(cap.limitUsd) || cap.limitUsd < 0) throw new RangeError(`a cap's limit must be a non-negative USD amount, got ${cap.limitUsd}`);
    if (!Number.isSafeInteger(cap.since) || !Number.isSafeInteger(cap.resetsAt)) throw new RangeError('a cap window must be whole epoch ms');
    if (cap.key === '') throw new RangeError('a cap needs a key');
  }
}

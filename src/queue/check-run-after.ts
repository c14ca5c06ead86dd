/** A deferral's time must be a whole epoch ms: both queues refuse the same values, before any write. */
export function checkRunAfter(runAfter: number): void {
  if (!Number.isSafeInteger(runAfter) || runAfter < 0) throw new RangeError(`runAfter must be a non-negative integer epoch ms, got ${runAfter}`);
}

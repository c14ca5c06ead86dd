/** One attempt took longer than its budget (headers and body together). */
export class AttemptTimeoutError extends Error {
  override readonly name = 'AttemptTimeoutError';
  constructor(
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`no answer within ${timeoutMs} ms`, options);
  }
}

/**
 * Runs one attempt under its own deadline, linked to the caller's signal. Unlike the SDK's
 * timeout, which stops at the response headers, this also covers a body that stalls half-way.
 * A caller's abort stays an abort; only our deadline becomes AttemptTimeoutError.
 */
export async function withAttemptTimeout<T>(timeoutMs: number, outer: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = outer ? AbortSignal.any([outer, deadline]) : deadline;
  try {
    return await run(signal);
  } catch (error) {
    if (deadline.aborted && !outer?.aborted) throw new AttemptTimeoutError(timeoutMs, { cause: error });
    throw error;
  }
}

import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`; injected so tests record the delays instead of waiting them out. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real clock. An abort ends the wait early and rejects with the signal's reason. */
export const realSleep: Sleep = async (ms, signal) => {
  try {
    await delay(ms, undefined, { signal });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  }
};

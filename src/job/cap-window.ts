import type { SpendCap } from '../queue/types.js';

/**
 * The window a cap counts spend in, by the queue's clock in UTC: the day from 00:00 to the next
 * 00:00, or the calendar month from its 1st 00:00 to the next month's. `since` is inclusive,
 * `resetsAt` the first instant of the next window.
 */
export function capWindow(window: SpendCap['window'], now: number): { since: number; resetsAt: number } {
  const d = new Date(now);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (window === 'day') return { since: Date.UTC(y, m, day), resetsAt: Date.UTC(y, m, day + 1) };
  return { since: Date.UTC(y, m, 1), resetsAt: Date.UTC(y, m + 1, 1) };
}

/** "2026-12-02 00:00 UTC": when a window resets, as a person reads it. */
export function utcMinute(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

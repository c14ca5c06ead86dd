/**
 * How many refusal comments greenfix may post per repository in a sliding window: the answer to
 * "N accounts × M issues → N×M bot comments". Refusals are already said once per (issue, reason,
 * sender) through the queue's notes; this caps what is left, whoever asks.
 *
 * In memory, per receiving process, on purpose: it is a flood guard, not a promise. A restart
 * forgets the window, which costs at most one more window's worth of comments; several receivers
 * each allow their own. Keeping it in the queue would need a new operation in both queue
 * implementations (SQLite and the BullMQ Lua record) for a counter that may be lost.
 */
export interface RefusalLimiter {
  /** true (and counted) when one more refusal may be posted on this repository now. */
  allow(repoKey: string): boolean;
}

export interface RefusalLimiterOptions {
  /** Refusals per repository per window (default 10). */
  max?: number;
  /** Default one hour. */
  windowMs?: number;
  /** Repositories remembered; the least recently refused is forgotten first (default 1,000). */
  maxRepos?: number;
  now?: () => number;
}

export const DEFAULT_REFUSALS_PER_HOUR = 10;

export function createRefusalLimiter(options: RefusalLimiterOptions = {}): RefusalLimiter {
  const max = options.max ?? DEFAULT_REFUSALS_PER_HOUR;
  const windowMs = options.windowMs ?? 3_600_000;
  const maxRepos = options.maxRepos ?? 1_000;
  const now = options.now ?? Date.now;
  // Per repository, the times of the refusals still inside the window (at most `max`), oldest
  // first; Map order is least recently refused first, so eviction takes the first key.
  const recent = new Map<string, number[]>();
  return {
    allow(repoKey) {
      const t = now();
      const times = (recent.get(repoKey) ?? []).filter((at) => t - at < windowMs);
      recent.delete(repoKey);
      const allowed = times.length < max;
      if (allowed) times.push(t);
      if (times.length > 0) recent.set(repoKey, times);
      while (recent.size > maxRepos) recent.delete(recent.keys().next().value as string);
      return allowed;
    },
  };
}

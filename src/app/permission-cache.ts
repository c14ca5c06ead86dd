import type { Permission } from '../github/types.js';

/**
 * Collaborator permissions the webhook handler learned, kept for a short while so a burst of
 * deliveries from the same people costs one GitHub call each, not one per delivery.
 *
 * Staleness is bounded twice: every answer expires after `ttlMs`, and the `member`, `membership`
 * and `organization` events, where the app is subscribed to them, forget a login at once
 * (greenfix-app.ts). A failed lookup is not kept; lookups of the same key in flight share one call.
 */
export interface PermissionCache {
  /** The cached role of `login` on repository `repoId`, or `load()`'s answer (then kept). */
  get(repoId: number, login: string, load: () => Promise<Permission>): Promise<Permission>;
  /** Forgets what is known of `login`: on one repository, or (no `repoId`) on all of them. */
  forget(login: string, repoId?: number): void;
}

export interface PermissionCacheOptions {
  /** How long an answer is trusted; default 60 s. */
  ttlMs?: number;
  /** Answers kept; the least recently used goes first (default 2,000). */
  maxEntries?: number;
  now: () => number;
}

export const DEFAULT_PERMISSION_TTL_MS = 60_000;

/** Created per app instance and passed in: the state lives in this closure, never in the module. */
export function createPermissionCache(options: PermissionCacheOptions): PermissionCache {
  const ttlMs = options.ttlMs ?? DEFAULT_PERMISSION_TTL_MS;
  const max = options.maxEntries ?? 2_000;
  const entries = new Map<string, { at: number; answer: Promise<Permission> }>();
  const keyOf = (repoId: number, login: string) => `${repoId}:${login.toLowerCase()}`;
  return {
    get(repoId, login, load) {
      const key = keyOf(repoId, login);
      const now = options.now();
      const found = entries.get(key);
      entries.delete(key);
      if (found && now - found.at < ttlMs) {
        entries.set(key, found);
        return found.answer;
      }
      const entry = { at: now, answer: load() };
      entries.set(key, entry);
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
      entry.answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.answer;
    },
    forget(login, repoId) {
      if (repoId !== undefined) {
        entries.delete(keyOf(repoId, login));
        return;
      }
      const suffix = `:${login.toLowerCase()}`;
      for (const key of [...entries.keys()]) if (key.endsWith(suffix)) entries.delete(key);
    },
  };
}

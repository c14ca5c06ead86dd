import { loadRepoConfig } from '../config/load-repo-config.js';
import type { RepoConfigResult } from '../config/parse-repo-config.js';

/**
 * Repository configs (`.github/greenfix.yml`, read and validated) the webhook handler learned, kept
 * for a short while: a burst of label deliveries costs one read, and a label event whose config is
 * known is decided before the answer, without a job. A label payload says nothing of the config's
 * version, so staleness is bounded by time (`ttlMs`) and by `push` events: a push to the default
 * branch that touches the file forgets the repository at once (a push to an owner's `.github`
 * repository, whose file Probot uses as a base, forgets the owner's). A failed read is not kept;
 * reads of one repository in flight share one call.
 */
export interface ConfigCache {
  /** The cached config of the repository, or `load()`'s answer (then kept). */
  get(repo: ConfigRepo, load: () => Promise<RepoConfigResult>): Promise<RepoConfigResult>;
  /** The config, when a fresh one is already known (no call, no wait); else undefined. */
  peek(repoId: number): RepoConfigResult | undefined;
  /** Forgets one repository, or (`owner` only) every repository of an owner. */
  forget(what: { repoId: number } | { owner: string }): void;
}

export interface ConfigRepo {
  id: number;
  owner: string;
}

export interface ConfigCacheOptions {
  /** How long a config is trusted; default 30 s. */
  ttlMs?: number;
  /** Repositories kept; the least recently used goes first (default 1,000). */
  maxEntries?: number;
  now: () => number;
}

export const DEFAULT_CONFIG_TTL_MS = 30_000;

type Entry = { at: number; owner: string; answer: Promise<RepoConfigResult>; value?: RepoConfigResult };

/** Created per app instance and passed in: the state lives in this closure, never in the module. */
export function createConfigCache(options: ConfigCacheOptions): ConfigCache {
  const ttlMs = options.ttlMs ?? DEFAULT_CONFIG_TTL_MS;
  const max = options.maxEntries ?? 1_000;
  const entries = new Map<number, Entry>();
  const fresh = (repoId: number): Entry | undefined => {
    const found = entries.get(repoId);
    if (!found) return undefined;
    entries.delete(repoId);
    if (options.now() - found.at >= ttlMs) return undefined;
    entries.set(repoId, found);
    return found;
  };
  return {
    get(repo, load) {
      const found = fresh(repo.id);
      if (found) return found.answer;
      const entry: Entry = { at: options.now(), owner: repo.owner.toLowerCase(), answer: load() };
      entries.set(repo.id, entry);
      while (entries.size > max) entries.delete(entries.keys().next().value as number);
      entry.answer.then(
        (value) => {
          entry.value = value;
        },
        () => {
          if (entries.get(repo.id) === entry) entries.delete(repo.id);
        },
      );
      return entry.answer;
    },
    peek: (repoId) => fresh(repoId)?.value,
    forget(what) {
      if ('repoId' in what) {
        entries.delete(what.repoId);
        return;
      }
      const owner = what.owner.toLowerCase();
      for (const [id, entry] of [...entries]) if (entry.owner === owner) entries.delete(id);
    },
  };
}

/** The repository's config (read and validated) through the cache; read each time when the repository is not known. */
export function cachedRepoConfig(configs: ConfigCache, repo: ConfigRepo | null, read: () => Promise<unknown>): Promise<RepoConfigResult> {
  const load = () => loadRepoConfig(read);
  return repo ? configs.get(repo, load) : load();
}

import { describeIssue } from './describe-issue.js';
import { storePaths } from './env-config.js';
import { EnvConfigError } from './env-config-error.js';
import { EnvSchema } from './env-schema.js';

/** Where the app's queue store is: the same resolution as `greenfix serve`'s (env-config.ts). */
export interface StoreConfig {
  /** Absolute: the embedded queue's SQLite file (GREENFIX_DB, default `<workdir>/greenfix.db`). */
  db: string;
  /** Set: the BullMQ queue on Redis is the store. */
  redisUrl?: string;
}

const StoreEnv = EnvSchema.pick({ GREENFIX_WORKDIR: true, GREENFIX_DB: true, REDIS_URL: true });

/**
 * The store's location from GREENFIX_WORKDIR, GREENFIX_DB and REDIS_URL only, for commands that
 * read the store without running the app (`greenfix stats`): no credentials needed. Every
 * problem in an EnvConfigError.
 */
export function storeConfigFromEnv(env: Record<string, string | undefined>, cwd: string): StoreConfig {
  const parsed = StoreEnv.safeParse(env);
  if (!parsed.success) throw new EnvConfigError(parsed.error.issues.map((issue) => describeIssue(issue, env)));
  const v = parsed.data;
  return { db: storePaths(v, cwd).db, ...(v.REDIS_URL ? { redisUrl: v.REDIS_URL } : {}) };
}

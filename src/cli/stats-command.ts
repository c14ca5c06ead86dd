import { existsSync } from 'node:fs';
import { EnvConfigError } from '../config/env-config-error.js';
import { storeConfigFromEnv, type StoreConfig } from '../config/store-config.js';
import { QueueOpenError } from '../queue/errors.js';
import { RedisQueueOpenError } from '../queue/redis-connect.js';
import { openSqliteQueue } from '../queue/sqlite-queue.js';
import type { JobQueue } from '../queue/types.js';
import { ExitCode, UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { parseFlags } from './parse-flags.js';
import { renderStatsTable } from './stats-table.js';

export const STATS_USAGE = `Usage: greenfix stats [--since AGE|DATE] [--json]

Spend, pull requests opened, pull requests merged and cost per merged PR, per repository and in
total, from the store the app uses (REDIS_URL, else GREENFIX_DB or <GREENFIX_WORKDIR>/greenfix.db).
Cost per merged PR is all the model spend recorded for a repository (every job, failed ones too)
divided by its merged greenfix PRs.
  --since AGE|DATE   only what happened since then: 30d, 12h, 90m, or a date (2026-11-01)
  --json             one JSON object on stdout: { since, repos: [...], total }`;

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30d` → 30 days before `now`; `2026-11-01` (or any ISO date-time) → that time. */
export function parseSince(text: string, now: number): number {
  const age = /^(\d{1,6})([mhd])$/.exec(text);
  if (age) return now - Number(age[1]) * UNITS[age[2]!]!;
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(at)) throw new UsageError(`--since takes an age (30d, 12h, 90m) or a date (2026-11-01), got '${text}'`);
  return at;
}

/** `greenfix stats`: reads the queue store, changes nothing in it but its schema version. */
export async function statsCommand(argv: string[], io: CliIo, now: () => number = Date.now): Promise<number> {
  try {
    const flags = parseFlags(argv, { since: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, STATS_USAGE);
    if (flags.help) {
      io.stdout(STATS_USAGE);
      return ExitCode.verified;
    }
    const since = typeof flags.since === 'string' ? parseSince(flags.since, now()) : undefined;
    const queue = await openStore(storeConfigFromEnv(io.env, io.cwd));
    try {
      const stats = await queue.stats(since);
      if (flags.json) io.stdout(JSON.stringify({ since: since ?? null, ...stats }));
      else for (const line of renderStatsTable(stats, since === undefined ? 'all time' : `since ${new Date(since).toISOString()}`)) io.stdout(line);
    } finally {
      await queue.close();
    }
    return ExitCode.verified;
  } catch (error) {
    if (error instanceof EnvConfigError) {
      io.stderr(`greenfix stats: the environment has ${error.problems.length} problem(s):\n${error.problems.map((p) => `  - ${p}`).join('\n')}`);
      return ExitCode.usage;
    }
    if (error instanceof UsageError || error instanceof QueueOpenError || error instanceof RedisQueueOpenError) {
      io.stderr(`greenfix stats: ${error.message}`);
      return ExitCode.usage;
    }
    throw error;
  }
}

/** The app's store; a SQLite file that is not there is an error (stats never creates an empty queue). */
async function openStore(config: StoreConfig): Promise<JobQueue> {
  if (config.redisUrl) {
    const { openBullmqQueue } = await import('../queue/bullmq-queue.js');
    return openBullmqQueue({ url: config.redisUrl });
  }
  if (!existsSync(config.db)) {
    throw new UsageError(`no queue database at ${config.db}: greenfix serve has not run with this GREENFIX_WORKDIR / GREENFIX_DB (or set REDIS_URL for the Redis queue)`);
  }
  return openSqliteQueue({ path: config.db });
}

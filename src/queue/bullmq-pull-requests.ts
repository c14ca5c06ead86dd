import type { Redis } from 'ioredis';
import { RECORD_PRELUDE } from './bullmq-record-prelude.js';
import { checkedRecord, queueStats } from './queue-stats.js';
import type { JobQueue } from './types.js';

/*
 * The Redis queue's pull request records, under the record prefix P (ARGV as in the prelude):
 * `pr:<repo>#<n>` (hash: repo_key, repo, number, job_id, opened_at, merged_at), `prs:opened:<repo>`
 * and `prs:merged:<repo>` (zsets PR number → when), `prs:repos` (hash repo key → `owner/name`),
 * and the repositories with spend, `spend:repos` (a set the lease scripts add to with each spend).
 */

/** ARGV: repoKey, repo, number, jobId. 1 when recorded, 0 when the PR was recorded before. */
const RECORD_PULL_REQUEST_LUA = `${RECORD_PRELUDE}
local repoKey, repo, number, jobId = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local key = P .. ':pr:' .. repoKey .. '#' .. number
if redis.call('EXISTS', key) == 1 then return 0 end
redis.call('HSET', key, 'repo_key', repoKey, 'repo', repo, 'number', number, 'job_id', jobId, 'opened_at', NOW)
redis.call('ZADD', P .. ':prs:opened:' .. repoKey, NOW, number)
redis.call('HSET', P .. ':prs:repos', repoKey, repo)
return 1
`;

/** ARGV: repoKey, number, merged at. 1 the first time; 0 for a PR greenfix did not open or one already merged. */
const RECORD_MERGE_LUA = `${RECORD_PRELUDE}
local repoKey, number, at = ARGV[4], ARGV[5], ARGV[6]
local key = P .. ':pr:' .. repoKey .. '#' .. number
if redis.call('EXISTS', key) == 0 or redis.call('HEXISTS', key, 'merged_at') == 1 then return 0 end
redis.call('HSET', key, 'merged_at', at)
redis.call('ZADD', P .. ':prs:merged:' .. repoKey, at, number)
return 1
`;

/**
 * ARGV: since. One row per repository with spend or PRs in the window: { key, name ('' = unknown),
 * spend (string), opened, merged }. A repository that opened no PR is named by a job of its spend
 * still in the queue.
 */
const STATS_LUA = `${RECORD_PRELUDE}
local since = ARGV[4]
local keys = {}
for _, k in ipairs(redis.call('SMEMBERS', P .. ':spend:repos')) do keys[k] = true end
for _, k in ipairs(redis.call('HKEYS', P .. ':prs:repos')) do keys[k] = true end
local function jobName(k)
  for _, id in ipairs(redis.call('ZREVRANGE', P .. ':spend:' .. k, 0, 9)) do
    local request = get(id, 'request')
    if request then
      local ok, decoded = pcall(cjson.decode, request)
      if ok and type(decoded) == 'table' and type(decoded.repo) == 'table' then
        return tostring(decoded.repo.owner) .. '/' .. tostring(decoded.repo.name)
      end
    end
  end
  return ''
end
local out = {}
for k in pairs(keys) do
  local usd = 0
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':spend:' .. k, since, '+inf')) do
    usd = usd + tonumber(redis.call('HGET', P .. ':spend:usd', id) or '0')
  end
  local opened = redis.call('ZCOUNT', P .. ':prs:opened:' .. k, since, '+inf')
  local merged = redis.call('ZCOUNT', P .. ':prs:merged:' .. k, since, '+inf')
  if usd > 0 or opened > 0 or merged > 0 then
    local name = redis.call('HGET', P .. ':prs:repos', k) or jobName(k)
    table.insert(out, { k, name, tostring(usd), opened, merged })
  end
end
return out
`;

const SCRIPTS = { gfRecordPullRequest: RECORD_PULL_REQUEST_LUA, gfRecordMerge: RECORD_MERGE_LUA, gfStats: STATS_LUA } as const;

export type PullRequestOps = Pick<JobQueue, 'recordPullRequest' | 'recordMerge' | 'pullRequestsOpenedSince' | 'stats'>;

/** The pull request methods of the BullMQ queue, on its connection and record prefix, with its clock. */
export function bullmqPullRequests(redis: Redis, prefix: string, now: () => number): PullRequestOps {
  for (const [name, lua] of Object.entries(SCRIPTS)) redis.defineCommand(name, { numberOfKeys: 1, lua });
  const commands = redis as unknown as Record<keyof typeof SCRIPTS, (...args: (string | number)[]) => Promise<unknown>>;
  // Same calling convention as the record scripts (bullmq-record.ts); these read no BullMQ key.
  const run = (name: keyof typeof SCRIPTS, ...args: (string | number)[]) => commands[name](`${prefix}:seq`, prefix, now(), '', ...args);
  return {
    async recordPullRequest(record) {
      const r = checkedRecord(record);
      return (await run('gfRecordPullRequest', r.repoKey, r.repo, r.number, r.jobId)) === 1;
    },
    recordMerge: async (repoKey, number, at) => (await run('gfRecordMerge', repoKey, number, at)) === 1,
    async pullRequestsOpenedSince(repoKey, since) {
      const flat = await redis.zrangebyscore(`${prefix}:prs:opened:${repoKey}`, since, '+inf', 'WITHSCORES');
      return flat.filter((_, i) => i % 2 === 1).map(Number);
    },
    async stats(since = 0) {
      const rows = (await run('gfStats', since)) as Array<[string, string, string, number, number]>;
      return queueStats(rows.map(([repoKey, repo, usd, opened, merged]) => ({ repoKey, repo: repo === '' ? null : repo, spendUsd: Number(usd), opened, merged })));
    },
  };
}

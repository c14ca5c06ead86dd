import type { Redis } from 'ioredis';
import { hashToJob } from './redis-row.js';
import type { CountedState, Job } from './types.js';

export interface RedisReads {
  get(id: string): Promise<Job | null>;
  listBySubject(subject: string): Promise<Job[]>;
  counts(): Promise<Record<CountedState, number>>;
  noteOnce(key: string): Promise<boolean>;
}

/** Reads need no script: one key each, or one pipeline. The notes (zset key → first noted) outlive jobs. */
export function createRedisReads(redis: Redis, prefix: string, now: () => number): RedisReads {
  const jobKey = (id: string) => `${prefix}:job:${id}`;
  const flat = (h: Record<string, string>) => Object.entries(h).flat();
  return {
    async get(id) {
      const h = await redis.hgetall(jobKey(id));
      return Object.keys(h).length === 0 ? null : hashToJob(flat(h));
    },
    async listBySubject(subject) {
      const ids = await redis.zrevrange(`${prefix}:subject:${subject}`, 0, -1);
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hgetall(jobKey(id));
      const answers = (await pipeline.exec()) ?? [];
      return answers.map(([error, h]) => {
        if (error) throw error;
        return hashToJob(flat(h as Record<string, string>));
      });
    },
    async counts() {
      const stored = await redis.hgetall(`${prefix}:counts`);
      const counts: Record<CountedState, number> = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
      for (const state of Object.keys(counts) as CountedState[]) counts[state] = Number(stored[state] ?? 0);
      counts.queued += Number(stored.authorizing ?? 0);
      return counts;
    },
    noteOnce: async (key) => (await redis.zadd(`${prefix}:notes`, 'NX', now(), key)) === 1,
  };
}

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { EnvConfig } from '../config/env-config.js';
import { openSqliteQueue } from '../queue/sqlite-queue.js';
import type { JobQueue } from '../queue/types.js';

/** REDIS_URL set: the shared BullMQ queue on Redis (several hosts). Otherwise the embedded SQLite file. */
export async function openQueue(config: EnvConfig, log: Logger): Promise<JobQueue> {
  if (config.redisUrl) {
    // BullMQ and ioredis load only when Redis is used: the embedded queue never pays for them.
    const { openBullmqQueue } = await import('../queue/bullmq-queue.js');
    const { redactRedisUrl } = await import('../queue/redis-connect.js');
    log.info({ redis: redactRedisUrl(config.redisUrl) }, 'queue: BullMQ on Redis');
    return openBullmqQueue({ url: config.redisUrl, onError: (err) => log.warn({ err: err.message }, 'Redis connection problem; reconnecting') });
  }
  mkdirSync(dirname(config.db), { recursive: true, mode: 0o700 });
  log.info({ db: config.db }, 'queue: SQLite');
  return openSqliteQueue({
    path: config.db,
    onSyncError: (err) => log.warn({ err }, 'the queue\'s write-ahead log could not be synced: a power cut now may take the deliveries answered last; greenfix finds them in GitHub\'s delivery log at its next start'),
  });
}

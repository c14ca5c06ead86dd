/** The queue's public surface: the JobQueue contract, the SQLite and BullMQ implementations and their errors. */
export * from './types.js';
export { openSqliteQueue, type SqliteQueueOptions } from './sqlite-queue.js';
export { CorruptJobError, QueueOpenError, type QueueOpenErrorKind } from './errors.js';
export { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from './backoff.js';
export { openBullmqQueue, type BullmqQueueOptions } from './bullmq-queue.js';
export { jobIdForDelivery } from './job-id.js';
export { RedisQueueOpenError, redactRedisUrl } from './redis-connect.js';

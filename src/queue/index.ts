/** The queue's public surface: the JobQueue contract, the SQLite implementation and its errors. */
export * from './types.js';
export { openSqliteQueue, type SqliteQueueOptions } from './sqlite-queue.js';
export { CorruptJobError, QueueOpenError, type QueueOpenErrorKind } from './errors.js';
export { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from './backoff.js';

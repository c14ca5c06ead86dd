/** Why the queue's database could not be opened: each kind asks the operator for a different fix. */
export type QueueOpenErrorKind = 'unwritable' | 'corrupt' | 'newer_schema';

/** The database file cannot be used; the message names the path and what to do about it. */
export class QueueOpenError extends Error {
  override readonly name = 'QueueOpenError';
  constructor(
    readonly kind: QueueOpenErrorKind,
    readonly path: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot open the job queue at ${path}: ${detail}`, options);
  }
}

/** A stored job row that does not parse: the database was edited or damaged outside greenfix. */
export class CorruptJobError extends Error {
  override readonly name = 'CorruptJobError';
  constructor(
    readonly jobId: string,
    detail: string,
  ) {
    super(`job ${jobId} in the queue database is corrupt: ${detail}`);
  }
}

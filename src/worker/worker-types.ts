import type { Claimed, JobQueue } from '../queue/types.js';

/** How runJob ended: the pool turns it into complete, fail, defer or markCancelled on the queue. */
export type JobRunResult =
  | { type: 'succeeded'; result: unknown; spendUsd?: number }
  | { type: 'failed'; message: string; retryable: boolean; spendUsd?: number }
  | { type: 'cancelled'; spendUsd?: number }
  /** Not now: back to the queue until `runAfter` (epoch ms, the queue's clock), the attempt not counted. */
  | { type: 'deferred'; runAfter: number; reason: string; spendUsd?: number };

/** Why the pool aborted a job's signal (`signal.reason`); runJob may branch on `kind`. */
export type WorkerAbortReason =
  | { kind: 'cancelled'; reason: string }
  | { kind: 'lease_lost' }
  | { kind: 'shutdown' };

/** The slice of pino the pool uses. */
export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WorkerPoolDeps {
  queue: JobQueue;
  workerId: string;
  /** Jobs run at once; also passed to claim as the global `maxRunning`. */
  concurrency: number;
  leaseMs: number;
  /** Well under leaseMs, so a late heartbeat or two does not lose the lease. */
  heartbeatMs: number;
  /** Claim attempts without a wake(): picks up retries whose backoff ended and other workers' stalled jobs. */
  pollMs: number;
  runJob: (claimed: Claimed, signal: AbortSignal) => Promise<JobRunResult>;
  log: WorkerLog;
}

export interface WorkerPool {
  /** Claim now (a job was just enqueued), instead of at the next poll. */
  wake(): void;
  /** Resolves when nothing runs and nothing is claimable now. */
  drained(): Promise<void>;
  /**
   * Stops claiming, waits up to graceMs for running jobs, then aborts the rest with
   * `{ kind: 'shutdown' }` and releases their leases (another worker takes them over).
   */
  stop(options: { graceMs: number }): Promise<void>;
  running(): number;
}

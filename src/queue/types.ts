import type { JobRequest } from '../triggers/types.js';
import type { AnsweredDeliveries } from './answered-deliveries.js';

/**
 * A durable job queue (DESIGN §1). Two implementations keep the same promises: SQLite (embedded
 * default) and BullMQ on Redis (scale-out). One contract test suite runs against both.
 *
 * Promises:
 * - the same delivery id (or dedupe key) never makes a second job while the first is kept (`prune`);
 * - one active job per subject (issue/PR): a new job for a subject cancels the older one;
 * - a claimed job is leased; a lease not renewed in time expires and the job is claimed again;
 * - at most `maxRunning` jobs run at once over all workers, and one at a time per repository;
 * - a transient failure is retried with exponential backoff up to `maxAttempts`;
 * - a job enqueued to be authorised (`authorize`) waits in 'authorizing': never claimed, it
 *   supersedes nothing until `authorize` lets it in (then it is 'queued') or removes it.
 */
export type JobState = 'authorizing' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** The states `counts` reports. */
export type CountedState = Exclude<JobState, 'authorizing'>;

/**
 * What a sender without write access gets when their job is refused (app/authorize-job.ts):
 * 'refusal' (a refusal comment naming their permission), 'outsider' (the one outsider reply per
 * issue) or 'quiet' (nothing: not a command).
 */
export type AuthorizeMode = 'refusal' | 'outsider' | 'quiet';

export interface Job {
  id: string;
  /** `X-GitHub-Delivery` of the webhook that made it. */
  deliveryId: string;
  /** Optional second dedupe key (CI fixes: head SHA + failing checks). */
  dedupeKey: string | null;
  /** `subjectKey(repo, number)`. */
  subject: string;
  /** Repository id as a string: one running job per repository. */
  repoKey: string;
  request: JobRequest;
  state: JobState;
  /** Attempts started so far (a claim counts; a resumed claim after a lease expiry counts too). */
  attempts: number;
  maxAttempts: number;
  /** Epoch ms before which the job is not claimed (backoff). */
  runAfter: number;
  createdAt: number;
  updatedAt: number;
  /** Set when someone asked to cancel it (it may still be running until the worker notices). */
  cancelReason: string | null;
  /** Last error message (failed, or waiting to be retried). */
  error: string | null;
  /** What the job produced, as the worker reported it (JSON). */
  result: unknown;
  /** How a refused sender is answered, for a job enqueued to be authorised; null: no check asked. */
  authorize: AuthorizeMode | null;
}

export interface EnqueueOptions {
  deliveryId: string;
  dedupeKey?: string;
  /** Default 3. */
  maxAttempts?: number;
  /**
   * The sender is not checked yet: the job is recorded 'authorizing' (no supersede, never
   * claimed) until `authorize` decides. The mode says how a refused sender is answered.
   */
  authorize?: AuthorizeMode;
}

/** `authorize`'s answer. `changed` false: the job was not 'authorizing' (decided before, cancelled, or unknown). */
export interface AuthorizeResult {
  /** The job as left ('queued' when let in); the removed job when refused; as found when unchanged; null when unknown. */
  job: Job | null;
  changed: boolean;
  /** Older jobs of the same subject that letting this one in cancelled. */
  superseded: string[];
}

export interface EnqueueResult {
  job: Job;
  /** false: the delivery (or dedupe key) was already known, `job` is the existing one. */
  created: boolean;
  /** Older jobs of the same subject that this one cancelled. */
  superseded: string[];
}

/** Proof of a claim: only the holder of the token may heartbeat, complete, fail or release. */
export interface Lease {
  jobId: string;
  token: string;
}

export interface Claimed {
  job: Job;
  lease: Lease;
}

export interface ClaimOptions {
  workerId: string;
  leaseMs: number;
  /** Global limit of running jobs (over all workers sharing the queue). */
  maxRunning: number;
}

/** Answer to a heartbeat: whether the lease is still held, and whether the job was cancelled. */
export interface HeartbeatResult {
  held: boolean;
  cancelReason: string | null;
}

export interface FailOptions {
  message: string;
  /** Transient failures are retried with backoff while attempts remain. */
  retryable: boolean;
  /** USD the job spent so far (all attempts), recorded with the failure in one transaction. */
  spendUsd?: number;
}

/** A pull request greenfix opened, as the store records it (one per repository and number). */
export interface PullRequestRecord {
  /** Repository id as a string (`Job.repoKey`). */
  repoKey: string;
  /** `owner/name` when it was opened: the label of the repository in metrics and `greenfix stats`. */
  repo: string;
  number: number;
  /** The job that opened it. */
  jobId: string;
}

/** Spend and pull requests of one repository (or all of them), as `stats` reports them. */
export interface PullRequestTotals {
  /** USD recorded (all jobs, every outcome). */
  spendUsd: number;
  opened: number;
  merged: number;
  /**
   * `spendUsd / merged`: everything the repository spent, failures included, per merged PR. null
   * when nothing was merged, or nothing priced was spent (an unpriced model's cost is unknown, not 0).
   */
  costPerMergedPrUsd: number | null;
}

export interface RepoStats extends PullRequestTotals {
  repoKey: string;
  /** `owner/name`; null when no record names it any more (its jobs were pruned and it opened no PR). */
  repo: string | null;
}

export interface QueueStats {
  /** Repositories with spend or pull requests in the window, by name (unnamed last, by key). */
  repos: RepoStats[];
  total: PullRequestTotals;
}

export interface DeferOptions {
  /** Epoch ms (the queue's clock) before which the job is not claimed again. */
  runAfter: number;
  /** Why it waits (a cap, a rate limit): kept in the job's `error` while it waits. */
  reason: string;
  /** USD the job spent so far (all attempts), recorded in the same transaction, like `complete`'s. */
  spendUsd?: number;
}

/**
 * A spend cap over a window, as the caller computed it: `key` is the job's repository key
 * (`repoKey`) or its installation id as a string; `since`/`resetsAt` bound the window (epoch ms).
 */
export interface SpendCap {
  scope: 'repo' | 'installation';
  key: string;
  window: 'day' | 'month';
  limitUsd: number;
  since: number;
  resetsAt: number;
}

export interface ReserveOptions {
  /** USD the job may spend at most (its `max_cost_usd`, or the operator's default reservation). */
  usd: number;
  /** Checked in order; the first that does not fit is the answer. */
  caps: readonly SpendCap[];
}

export type ReserveResult =
  | { ok: true }
  /** `spentUsd`: recorded in the cap's window; `reservedUsd`: held by the key's other running jobs. */
  | { ok: false; cap: SpendCap; spentUsd: number; reservedUsd: number; resetsAt: number };

export interface JobQueue {
  enqueue(request: JobRequest, options: EnqueueOptions): Promise<EnqueueResult>;
  /** The next runnable job, or null: queued (or lease expired), `runAfter` passed, repo not busy. */
  claim(options: ClaimOptions): Promise<Claimed | null>;
  heartbeat(lease: Lease, leaseMs: number): Promise<HeartbeatResult>;
  /**
   * `spendUsd`: what the job cost so far (all its attempts: a resumed run's usage includes the
   * earlier ones), recorded in the same transaction as the completion. A job's recorded total only
   * grows, so recording it again (a retried call) never counts it twice. Read by `spent`.
   */
  complete(lease: Lease, result: unknown, spendUsd?: number): Promise<void>;
  /** Returns the state the job is left in: 'queued' (will retry) or 'failed'. */
  fail(lease: Lease, options: FailOptions): Promise<'queued' | 'failed'>;
  /** Gives the job back unfinished (graceful shutdown), without counting an attempt against it. */
  release(lease: Lease): Promise<void>;
  /**
   * Puts the running job back to 'queued' until `runAfter`, without counting an attempt against it
   * (like `release`), its reason kept in `error`. A job flagged for cancellation ends 'cancelled'
   * instead. Returns the state the job is left in. LeaseLostError when the lease is not held.
   */
  defer(lease: Lease, options: DeferOptions): Promise<'queued' | 'cancelled'>;
  /** Marks the job cancelled (after a cancel request, once the worker stopped it). */
  markCancelled(lease: Lease, spendUsd?: number): Promise<void>;
  /**
   * Atomically: for each cap, the spend recorded in its window for its key + the reservations of
   * the key's OTHER running jobs (live lease) + `usd` must be at most `limitUsd`. All fit: `usd` is
   * the job's reservation (replacing an earlier one) until it leaves 'running' (complete, fail,
   * defer, release, cancel) or its lease expires. One does not: nothing changes. A cap whose key is
   * not the job's repository or installation is a RangeError; LeaseLostError when not held.
   */
  reserve(lease: Lease, options: ReserveOptions): Promise<ReserveResult>;
  /** USD recorded for the installation (its id as a string) at or after `since` (epoch ms). */
  spentByInstallation(installationKey: string, since: number): Promise<number>;
  /** USD recorded for the repository (`repoKey`) at or after `since` (epoch ms), by the queue's clock. */
  spent(repoKey: string, since: number): Promise<number>;
  /**
   * Decides an 'authorizing' job, atomically. `allowed`: it becomes 'queued' and supersedes the
   * older active jobs of its subject, as `enqueue` does (enqueueing or letting in a job cancels the
   * older authorizing ones too, so the newest request wins). Refused: the job is
   * removed with its delivery id and dedupe key, as if never enqueued. Any other state: no change.
   */
  authorize(id: string, allowed: boolean): Promise<AuthorizeResult>;
  /** Up to `limit` 'authorizing' jobs created before `before` (epoch ms), oldest first: left by a receiver that stopped. */
  awaitingAuthorization(before: number, limit: number): Promise<Job[]>;
  /** Cancels queued (and authorizing) jobs of a subject and flags running ones; returns the jobs affected. */
  cancel(subject: string, reason: string): Promise<Job[]>;
  get(id: string): Promise<Job | null>;
  /** Jobs of a subject, newest first (CI attempt limits, status). */
  listBySubject(subject: string): Promise<Job[]>;
  /**
   * Leases held by `workerId` expire now: its previous process is known to be gone (restart after
   * a crash), so its jobs resume at once. Returns how many jobs that frees.
   */
  abandon(workerId: string): Promise<number>;
  /** true the first time a key is seen: "answer a refusal once". */
  noteOnce(key: string): Promise<boolean>;
  /**
   * Forgets up to `limit` finished jobs (succeeded, failed, cancelled) last updated before
   * `before` (epoch ms), with their dedupe keys, and notes and answered deliveries older than
   * that; returns how many jobs.
   * A redelivery of a forgotten delivery makes a new job, so keep `before` far behind GitHub's
   * redelivery window (greenfix keeps 30 days by default).
   */
  prune(before: number, limit: number): Promise<number>;
  /** Jobs per state; an 'authorizing' job counts as 'queued' (it waits, first to be authorised). */
  counts(): Promise<Record<CountedState, number>>;
  /**
   * Records that job `jobId` opened pull request `number`, at the queue's clock. Idempotent per
   * repository and number: a resumed job that finds its PR again records nothing new (false).
   */
  recordPullRequest(record: PullRequestRecord): Promise<boolean>;
  /**
   * Records the merge of pull request `number` at `at` (epoch ms). true the first time only; a
   * redelivered webhook changes nothing, and a PR greenfix did not open is ignored (false).
   */
  recordMerge(repoKey: string, number: number, at: number): Promise<boolean>;
  /** When greenfix opened the repository's pull requests at or after `since` (epoch ms), oldest first. */
  pullRequestsOpenedSince(repoKey: string, since: number): Promise<number[]>;
  /**
   * Spend, PRs opened and PRs merged per repository and in total, each counted by its own time
   * (spend recorded, PR opened, PR merged) at or after `since` (default: all time).
   */
  stats(since?: number): Promise<QueueStats>;
  /**
   * Present when an answer comes before the disk sync (the SQLite queue in WAL mode): what was
   * answered, to find the deliveries a power cut took. Absent (Redis): the answer waits for the store.
   */
  answered?: AnsweredDeliveries;
  close(): Promise<void>;
}

/** Thrown for a lease that is no longer held (expired and claimed by someone else). */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(readonly jobId: string) {
    super(`the lease on job ${jobId} is no longer held`);
  }
}

/** A deferral's time must be a whole epoch ms: both queues refuse the same values, before any write. */
export function checkRunAfter(runAfter: number): void {
  if (!Number.isSafeInteger(runAfter) || runAfter < 0) throw new RangeError(`runAfter must be a non-negative integer epoch ms, got ${runAfter}`);
}

import { LeaseLostError, type Claimed, type Lease } from '../queue/types.js';
import { startHeartbeat } from './worker-heartbeat.js';
import type { JobRunResult, WorkerAbortReason, WorkerPoolDeps } from './worker-types.js';

type JobDeps = Omit<WorkerPoolDeps, 'concurrency' | 'pollMs'>;

/** One claimed job inside the pool. `done` never rejects: every outcome ends in the queue or the log. */
export interface RunningJob {
  done: Promise<void>;
  /** Aborts the job and gives its lease back, unless it is already settling. */
  shutdown(): Promise<void>;
}

/** Runs a claimed job with a heartbeat, then reports its result to the queue. */
export function startJob(deps: JobDeps, claimed: Claimed): RunningJob {
  const { queue, log } = deps;
  const { lease, job } = claimed;
  const fields = { jobId: job.id, deliveryId: job.deliveryId, subject: job.subject, attempt: job.attempts, workerId: deps.workerId };
  const controller = new AbortController();
  const abort = (reason: WorkerAbortReason) => {
    if (controller.signal.aborted) return;
    log.info({ ...fields, abort: reason }, 'aborting job');
    controller.abort(reason);
  };
  const heartbeat = startHeartbeat(deps, lease, abort);
  // Read inside the async body after awaits: typed wide, so TS does not narrow it to 'running'.
  let phase = 'running' as 'running' | 'settling' | 'released';
  const done = (async () => {
    const result = await runSafely(deps, claimed, controller.signal, fields);
    heartbeat.stop();
    if (phase === 'released') return; // shutdown already gave the job back
    phase = 'settling';
    await settle(deps, lease, result, controller.signal.reason as WorkerAbortReason | undefined, fields);
  })();
  return {
    done,
    async shutdown() {
      if (phase !== 'running') return done;
      phase = 'released';
      heartbeat.stop();
      abort({ kind: 'shutdown' });
      await report(deps, fields, 'released at shutdown', () => queue.release(lease));
    },
  };
}

async function runSafely(deps: JobDeps, claimed: Claimed, signal: AbortSignal, fields: object): Promise<JobRunResult> {
  try {
    return await deps.runJob(claimed, signal);
  } catch (error) {
    deps.log.error({ ...fields, err: error }, 'job threw; it will be retried if attempts remain');
    return { type: 'failed', message: error instanceof Error ? error.message : String(error), retryable: true };
  }
}

/** A cancelled job ends 'cancelled' whatever runJob made of the abort; a lost lease is someone else's now. */
async function settle(deps: JobDeps, lease: Lease, result: JobRunResult, aborted: WorkerAbortReason | undefined, fields: object): Promise<void> {
  const { queue } = deps;
  if (aborted?.kind === 'lease_lost') {
    deps.log.warn({ ...fields, result: result.type }, 'lease lost while the job ran; its result is dropped');
    return;
  }
  // The job's spend so far goes into the store with its end, in one transaction (JobQueue.complete).
  const spend = result.spendUsd;
  if (result.type === 'succeeded') return report(deps, fields, 'job succeeded', () => queue.complete(lease, result.result, spend));
  if (result.type === 'cancelled' || aborted?.kind === 'cancelled') {
    return report(deps, fields, 'job cancelled', () => queue.markCancelled(lease, spend));
  }
  if (result.type === 'deferred') {
    const deferral = { runAfter: result.runAfter, reason: result.reason, ...(spend !== undefined ? { spendUsd: spend } : {}) };
    return report(deps, { ...fields, runAfter: result.runAfter, reason: result.reason }, 'job deferred', async () => ({ state: await queue.defer(lease, deferral) }));
  }
  const failure = { message: result.message, retryable: result.retryable, ...(spend !== undefined ? { spendUsd: spend } : {}) };
  return report(deps, { ...fields, error: result.message }, 'job failed', async () => ({ state: await queue.fail(lease, failure) }));
}

/** Runs one queue call and logs how it went; a LeaseLostError is a warning, anything else an error. */
async function report(deps: JobDeps, fields: object, msg: string, call: () => Promise<object | void>): Promise<void> {
  try {
    const extra = await call();
    deps.log.info({ ...fields, ...extra }, msg);
  } catch (error) {
    const lost = error instanceof LeaseLostError;
    deps.log[lost ? 'warn' : 'error']({ ...fields, err: error }, lost ? `${msg}, but the lease was lost` : `${msg}, but the queue refused it`);
  }
}

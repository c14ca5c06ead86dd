import { randomUUID } from 'node:crypto';
import type { Dispatch } from './bullmq-dispatch.js';
import type { RunRecord } from './bullmq-record.js';
import type { JobRequest } from '../triggers/types.js';
import { CorruptJobError } from './errors.js';
import { hashToJob } from './redis-row.js';
import type { Claimed, ClaimOptions } from './types.js';

type Verdict = ['run', unknown] | ['busy' | 'later', number] | ['drop', string, string];

export interface ClaimDeps {
  run: RunRecord;
  dispatch: Dispatch;
  /** Adds a job to BullMQ and clears its pending mark (enqueue's second step). */
  addToBullmq(id: string, request: JobRequest): Promise<void>;
}

/** A job still pending this long after its enqueue lost its receiver before BullMQ got it. */
const STRANDED_AFTER_MS = 10_000;

/**
 * Claim on the BullMQ queue: first settle what time has decided (stranded enqueues are added, lapsed
 * leases go back to BullMQ's wait list, due jobs are promoted), then take what BullMQ hands out until the record admits one.
 * A job whose repository is busy, or whose backoff is not over by greenfix's clock, goes back to
 * BullMQ's delayed set; one the record says must not run is finished in BullMQ as the record says.
 */
export async function claimNext({ run, dispatch, addToBullmq }: ClaimDeps, options: ClaimOptions): Promise<Claimed | null> {
  for (const hash of (await run('gfStranded', STRANDED_AFTER_MS)) as unknown[]) await addStranded(hash, addToBullmq);
  for (const id of (await run('gfSweep')) as string[]) await dispatch.handBack(id, '0');
  for (const id of (await run('gfDue')) as string[]) await dispatch.promote(id);
  // A job BullMQ hands out again in the same pass was put back just now (not due by greenfix's
  // clock, or its repository busy): the pass ends rather than spin on it.
  const seen = new Set<string>();
  for (;;) {
    const token = randomUUID();
    const id = await dispatch.next(token, options.leaseMs, options.maxRunning);
    if (id === null) return null;
    const again = seen.has(id);
    seen.add(id);
    const verdict = (await run('gfAdmit', id, token, options.workerId, options.leaseMs)) as Verdict;
    if (verdict[0] === 'run') {
      const claimed = await admitted(run, dispatch, id, token, verdict[1]);
      if (claimed) return claimed;
    } else if (verdict[0] === 'drop') {
      const [, state, reason] = verdict;
      if (state === 'succeeded') await dispatch.complete(id, token, null);
      else await dispatch.fail(id, token, reason === '' ? state : reason);
    } else {
      await dispatch.delay(id, token, verdict[1]);
      if (again) return null;
    }
  }
}

/** A damaged record is failed with the CorruptJobError message, and the next job is taken. */
async function admitted(run: RunRecord, dispatch: Dispatch, id: string, token: string, hash: unknown): Promise<Claimed | null> {
  try {
    return { job: hashToJob(hash), lease: { jobId: id, token } };
  } catch (error) {
    if (!(error instanceof CorruptJobError)) throw error;
    await run('gfFail', id, token, error.message, 0, '', 0);
    await dispatch.fail(id, token, error.message);
    return null;
  }
}

/** A damaged record cannot be added; `get` names it (CorruptJobError) when someone looks. */
async function addStranded(hash: unknown, addToBullmq: ClaimDeps['addToBullmq']): Promise<void> {
  try {
    const job = hashToJob(hash);
    await addToBullmq(job.id, job.request);
  } catch (error) {
    if (!(error instanceof CorruptJobError)) throw error;
  }
}

import type { RunRecord } from './bullmq-record.js';
import { checkReserve } from './check-reserve.js';
import { LeaseLostError, type Lease, type ReserveOptions, type ReserveResult } from './types.js';

type Answer = 0 | ['ok'] | ['over', number, string, string] | ['mismatch', number];

/** JobQueue.reserve on the BullMQ queue: one record script checks every cap and stores the reservation. */
export async function reserveOn(run: RunRecord, lease: Lease, options: ReserveOptions): Promise<ReserveResult> {
  checkReserve(options);
  const caps = options.caps.flatMap((cap) => [cap.scope, cap.key, String(cap.limitUsd), cap.since]);
  const answer = (await run('gfReserve', lease.jobId, lease.token, String(options.usd), options.caps.length, ...caps)) as Answer;
  if (answer === 0) throw new LeaseLostError(lease.jobId);
  if (answer[0] === 'ok') return { ok: true };
  const cap = options.caps[answer[1]]!;
  if (answer[0] === 'mismatch') throw new RangeError(`a ${cap.scope} cap for key ${cap.key} does not apply to job ${lease.jobId}`);
  return { ok: false, cap, spentUsd: Number(answer[2]), reservedUsd: Number(answer[3]), resetsAt: cap.resetsAt };
}

import type { Lease } from '../queue/types.js';
import type { WorkerAbortReason, WorkerPoolDeps } from './worker-types.js';

type HeartbeatDeps = Pick<WorkerPoolDeps, 'queue' | 'leaseMs' | 'heartbeatMs' | 'log'>;

/**
 * Renews a lease every heartbeatMs until stopped. A cancel request or a lost lease aborts the job
 * (once); after a cancel it keeps renewing, because the worker still has to mark the job cancelled.
 * A failing heartbeat is only logged: the lease may well outlive a short database hiccup.
 */
export function startHeartbeat(deps: HeartbeatDeps, lease: Lease, abort: (reason: WorkerAbortReason) => void): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const beat = async () => {
    try {
      const answer = await deps.queue.heartbeat(lease, deps.leaseMs);
      if (!answer.held) {
        // Not held but flagged: the job was cancelled after its lease lapsed; say cancelled, it is the truth.
        abort(answer.cancelReason === null ? { kind: 'lease_lost' } : { kind: 'cancelled', reason: answer.cancelReason });
        return; // nothing left to renew
      }
      if (answer.cancelReason !== null) abort({ kind: 'cancelled', reason: answer.cancelReason });
    } catch (error) {
      deps.log.warn({ jobId: lease.jobId, err: error }, 'heartbeat failed');
    }
    schedule();
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void beat(), deps.heartbeatMs);
    timer.unref();
  };
  schedule();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

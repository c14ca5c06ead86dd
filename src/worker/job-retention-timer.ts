import type { WorkerLog } from './worker-types.js';
import type { SweepResult } from './job-retention.js';
import { errorText } from '../util/error-text.js';

export const DEFAULT_RETENTION_SWEEP_MS = 3_600_000;

export interface RetentionTimerDeps {
  sweep(): Promise<SweepResult>;
  /** Forgets old finished jobs in the queue (JobQueue.prune); returns how many. */
  prune?(): Promise<number>;
  /** Evicts the dependency cache down to its cap (least recently used first). */
  sweepCache?(): Promise<{ removed: number; removedBytes: number; kept: number; keptBytes: number }>;
  /** Between sweeps; the first one runs at start. */
  intervalMs: number;
  log: Pick<WorkerLog, 'info' | 'warn'>;
}

export interface RetentionTimer {
  /** Runs a sweep now unless one is in flight (then waits for that one). */
  sweepNow(): Promise<void>;
  /** No more sweeps; waits for the one in flight, so its files are not deleted under a test's cleanup. */
  stop(): Promise<void>;
}

/**
 * Sweeps job directories when a worker starts and then every `intervalMs` (timer unref'd: it
 * never keeps the process alive). Sweeps never overlap, and nothing they do reaches the caller:
 * a failure is a warning in the log, and the next sweep tries again.
 */
export function startJobRetention(deps: RetentionTimerDeps): RetentionTimer {
  let inFlight: Promise<void> | null = null;
  let stopped = false;
  const sweepNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    inFlight ??= sweepAndLog(deps).finally(() => (inFlight = null));
    return inFlight;
  };
  void sweepNow();
  const timer = setInterval(() => void sweepNow(), deps.intervalMs);
  timer.unref();
  return {
    sweepNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}

async function sweepAndLog(deps: RetentionTimerDeps): Promise<void> {
  try {
    const r = await deps.sweep();
    if (r.removed.length > 0 || r.skipped.length > 0) {
      deps.log.info({ removed: r.removed.length, bytes: r.bytes, kept: r.kept, skipped: r.skipped }, 'job retention: removed finished job directories');
    }
    if (r.failed.length > 0) deps.log.warn({ failed: r.failed }, 'job retention: some job directories could not be swept; trying again at the next sweep');
  } catch (error) {
    deps.log.warn({ err: errorText(error) }, 'job retention sweep failed; trying again at the next sweep');
  }
  if (deps.sweepCache) {
    try {
      const c = await deps.sweepCache();
      if (c.removed > 0) deps.log.info({ removed: c.removed, bytes: c.removedBytes, kept: c.kept, keptBytes: c.keptBytes }, 'dependency cache: evicted the least recently used entries');
    } catch (error) {
      deps.log.warn({ err: errorText(error) }, 'dependency cache sweep failed; trying again at the next sweep');
    }
  }
  if (!deps.prune) return;
  try {
    const forgotten = await deps.prune();
    if (forgotten > 0) deps.log.info({ jobs: forgotten }, 'queue retention: forgot finished jobs past the retention period');
  } catch (error) {
    deps.log.warn({ err: errorText(error) }, 'queue retention failed; trying again at the next sweep');
  }
}

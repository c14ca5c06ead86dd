import type { Claimed, JobQueue } from '../../src/queue/types.js';
import { startWorkerPool } from '../../src/worker/worker-pool.js';
import { type JobRunResult, type WorkerPool, type WorkerPoolDeps } from '../../src/worker/worker-types.js';

/** Helpers for the worker pool tests (test/worker/worker-*.test.ts): every wait is on a promise, never a sleep. */

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** One call of the fake runJob; the test decides when and how it ends. */
export interface Call {
  claimed: Claimed;
  signal: AbortSignal;
  finish(result: JobRunResult): void;
  /** Resolves with signal.reason once the pool aborts the job. */
  aborted: Promise<unknown>;
}

/** A fake runJob whose calls wait for the test, plus `started(n)`: resolves once n calls began. */
export function controlledRunner() {
  const calls: Call[] = [];
  const waiters: Array<{ n: number; d: Deferred<void> }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const runJob = async (claimed: Claimed, signal: AbortSignal): Promise<JobRunResult> => {
    const outcome = deferred<JobRunResult>();
    const aborted = new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
    calls.push({ claimed, signal, finish: outcome.resolve, aborted });
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    for (const w of waiters.filter((w) => calls.length >= w.n)) w.d.resolve();
    try {
      return await outcome.promise;
    } finally {
      inFlight--;
    }
  };
  return {
    runJob,
    calls,
    maxInFlight: () => maxInFlight,
    started(n: number): Promise<Call> {
      const d = deferred<void>();
      if (calls.length >= n) d.resolve();
      else waiters.push({ n, d });
      return d.promise.then(() => calls[n - 1]!);
    },
  };
}

/** Wraps a queue so a test can wait for the pool's next claim that found nothing. */
export function observedQueue(queue: JobQueue) {
  let nullClaim = deferred<void>();
  const observed: JobQueue = {
    ...queue,
    claim: async (options) => {
      const claimed = await queue.claim(options);
      if (!claimed) {
        nullClaim.resolve();
        nullClaim = deferred<void>();
      }
      return claimed;
    },
  };
  return { queue: observed, nextEmptyClaim: () => nullClaim.promise };
}

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg?: string;
}

export function memoryLog() {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (obj: object, msg?: string) => void entries.push({ level, obj, msg });
  return { entries, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

/** Starts pools with test timings (the queue's clock is fake, so leases only expire when told). */
export function poolStarter(defaults: Pick<WorkerPoolDeps, 'queue' | 'log'>) {
  const pools: WorkerPool[] = [];
  return {
    start(deps: Partial<WorkerPoolDeps> & Pick<WorkerPoolDeps, 'runJob'>): WorkerPool {
      const pool = startWorkerPool({ workerId: `w${pools.length + 1}`, concurrency: 2, leaseMs: 60_000, heartbeatMs: 5, pollMs: 10, ...defaults, ...deps });
      pools.push(pool);
      return pool;
    },
    stopAll: () => Promise.all(pools.map((p) => p.stop({ graceMs: 0 }))),
  };
}

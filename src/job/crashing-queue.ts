import type { JobQueue } from '../queue/types.js';
import type { CrashPoints } from '../util/crash-points.js';

export type QueueCrashPoint = 'before_job_end' | 'after_job_end';

/**
 * A queue whose job endings (complete, fail, defer, markCancelled: each records the job's spend in the
 * same transaction) reach `before_job_end` and `after_job_end` around the real call.
 */
export function crashingQueue(queue: JobQueue, crash: CrashPoints<QueueCrashPoint>): JobQueue {
  const around =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      crash.reach('before_job_end');
      const result = await call(...args);
      crash.reach('after_job_end');
      return result;
    };
  // Both queues are plain objects of functions: the rest passes through unchanged.
  return {
    ...queue,
    complete: around((lease, result, spend) => queue.complete(lease, result, spend)),
    fail: around((lease, options) => queue.fail(lease, options)),
    defer: around((lease, options) => queue.defer(lease, options)),
    markCancelled: around((lease, spend) => queue.markCancelled(lease, spend)),
  };
}

import type { Claimed } from '../queue/types.js';
import { startJob, type RunningJob } from './worker-job.js';
import { serialPasses } from './worker-serial.js';
import type { WorkerPool, WorkerPoolDeps } from './worker-types.js';


/**
 * Claims jobs up to `concurrency` and runs them: at start, on wake(), every pollMs and whenever a
 * job ends. All state lives in this closure; the poll timer is unref'd and cleared by stop().
 */
export function startWorkerPool(deps: WorkerPoolDeps): WorkerPool {
  if (!(deps.concurrency >= 1)) throw new RangeError(`worker pool: concurrency must be at least 1, got ${deps.concurrency}`);
  if (!(deps.heartbeatMs < deps.leaseMs)) throw new RangeError(`worker pool: heartbeatMs (${deps.heartbeatMs}) must be shorter than leaseMs (${deps.leaseMs})`);
  const { queue, log } = deps;
  const jobs = new Map<string, RunningJob>();
  let stopping = false;
  const claimOptions = { workerId: deps.workerId, leaseMs: deps.leaseMs, maxRunning: deps.concurrency };

  const start = (claimed: Claimed) => {
    const { job } = claimed;
    log.info({ jobId: job.id, deliveryId: job.deliveryId, subject: job.subject, attempt: job.attempts, workerId: deps.workerId }, 'job claimed');
    const running = startJob(deps, claimed);
    jobs.set(job.id, running);
    void running.done.finally(() => {
      jobs.delete(job.id);
      if (!stopping) void passes.request();
    });
  };
  const passes = serialPasses(async () => {
    while (!stopping && jobs.size < deps.concurrency) {
      let claimed: Claimed | null;
      try {
        claimed = await queue.claim(claimOptions);
      } catch (error) {
        log.error({ workerId: deps.workerId, err: error }, 'claim failed; trying again at the next poll');
        return;
      }
      if (!claimed) return;
      start(claimed);
    }
  });
  const poll = setInterval(() => void passes.request(), deps.pollMs);
  poll.unref();
  void passes.request();

  return {
    wake() {
      if (!stopping) void passes.request();
    },
    async drained() {
      for (;;) {
        if (!stopping) await passes.request();
        if (jobs.size === 0) return;
        await Promise.race([...jobs.values()].map((j) => j.done));
      }
    },
    async stop({ graceMs }) {
      stopping = true;
      clearInterval(poll);
      await passes.idle();
      await withinGrace(Promise.all([...jobs.values()].map((j) => j.done)), graceMs);
      if (jobs.size > 0) log.warn({ workerId: deps.workerId, jobs: [...jobs.keys()] }, 'grace period over: aborting and releasing jobs');
      await Promise.all([...jobs.values()].map((j) => j.shutdown()));
    },
    running: () => jobs.size,
  };
}

/** Waits for `work`, or `graceMs`, whichever is first; the timer never outlives the wait. */
async function withinGrace(work: Promise<unknown>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  try {
    await Promise.race([work, grace]);
  } finally {
    clearTimeout(timer);
  }
}

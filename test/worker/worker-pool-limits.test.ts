import { jobRequest } from '../queue/job-requests.js';
import { sqliteFixture, type SqliteFixture } from '../queue/sqlite-fixture.js';
import { controlledRunner, memoryLog, observedQueue, poolStarter } from './worker-harness.js';

/** Limits and lease loss: how many jobs run at once, per pool and per repository. */
describe('worker pool limits', () => {
  let f: SqliteFixture;
  let logs: ReturnType<typeof memoryLog>;
  let watch: ReturnType<typeof observedQueue>;
  let pools: ReturnType<typeof poolStarter>;
  beforeEach(() => {
    f = sqliteFixture();
    logs = memoryLog();
    watch = observedQueue(f.queue);
    pools = poolStarter({ queue: watch.queue, log: logs.log });
  });
  afterEach(async () => {
    await pools.stopAll();
    await f.cleanup();
  });

  it('runs at most `concurrency` jobs at once', async () => {
    const runner = controlledRunner();
    const pool = pools.start({ runJob: runner.runJob, concurrency: 2 });
    for (let repo = 1; repo <= 4; repo++) await f.queue.enqueue(jobRequest(repo, 1), { deliveryId: `d${repo}` });
    pool.wake();
    const [a, b] = await Promise.all([runner.started(1), runner.started(2)]);
    // The claim loop stops as soon as the second job starts: nothing else was taken.
    expect(pool.running()).toBe(2);
    expect(await f.queue.counts()).toMatchObject({ running: 2, queued: 2 });
    a.finish({ type: 'succeeded', result: null });
    (await runner.started(3)).finish({ type: 'succeeded', result: null });
    b.finish({ type: 'succeeded', result: null });
    (await runner.started(4)).finish({ type: 'succeeded', result: null });
    await pool.drained();
    expect(runner.maxInFlight()).toBe(2);
    expect(await f.queue.counts()).toMatchObject({ succeeded: 4, queued: 0, running: 0 });
  });

  it('runs one job at a time per repository', async () => {
    const runner = controlledRunner();
    const pool = pools.start({ runJob: runner.runJob, concurrency: 3 });
    const first = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    const second = await f.queue.enqueue(jobRequest(1, 2), { deliveryId: 'b' });
    const empty = watch.nextEmptyClaim();
    pool.wake();
    const call = await runner.started(1);
    await empty; // the pool asked for more and the queue had nothing runnable
    expect(call.claimed.job.id).toBe(first.job.id);
    expect(pool.running()).toBe(1);
    expect((await f.queue.get(second.job.id))?.state).toBe('queued');
    call.finish({ type: 'succeeded', result: null });
    const next = await runner.started(2);
    expect(next.claimed.job.id).toBe(second.job.id);
    next.finish({ type: 'succeeded', result: null });
    await pool.drained();
    expect(runner.maxInFlight()).toBe(1);
  });

  it('two pools share the global limit through the queue', async () => {
    const runner = controlledRunner();
    const one = pools.start({ runJob: runner.runJob, concurrency: 1 });
    const two = pools.start({ runJob: runner.runJob, concurrency: 1 });
    await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    await f.queue.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
    const empty = watch.nextEmptyClaim();
    one.wake();
    const call = await runner.started(1);
    two.wake();
    await empty; // maxRunning 1 is reached over both pools
    expect(one.running() + two.running()).toBe(1);
    call.finish({ type: 'succeeded', result: null });
    (await runner.started(2)).finish({ type: 'succeeded', result: null });
    await Promise.all([one.drained(), two.drained()]);
    expect(runner.maxInFlight()).toBe(1);
  });

  it('a lost lease aborts the job and drops its result', async () => {
    const runner = controlledRunner();
    const pool = pools.start({ runJob: runner.runJob, leaseMs: 60_000 });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    const call = await runner.started(1);
    f.clock.advance(60_001);
    const thief = (await f.queue.claim({ workerId: 'other', leaseMs: 60_000, maxRunning: 5 }))!;
    expect(thief.job.id).toBe(job.id);
    expect(await call.aborted).toEqual({ kind: 'lease_lost' });
    call.finish({ type: 'succeeded', result: 'stale' });
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'running', attempts: 2, result: null });
    expect(logs.entries).toContainEqual(expect.objectContaining({ level: 'warn', obj: expect.objectContaining({ jobId: job.id }) }));
    await f.queue.complete(thief.lease, 'fresh');
  });

  it('a job cancelled after its lease lapsed is told it was cancelled, not that the lease was lost', async () => {
    const runner = controlledRunner();
    const pool = pools.start({ runJob: runner.runJob });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    const call = await runner.started(1);
    f.clock.advance(60_001);
    await f.queue.cancel(job.subject, 'issue closed');
    expect(await call.aborted).toEqual({ kind: 'cancelled', reason: 'issue closed' });
    call.finish({ type: 'cancelled' });
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'cancelled', cancelReason: 'issue closed' });
  });

  it('refuses settings that could never work', () => {
    const runJob = async () => ({ type: 'cancelled' as const });
    expect(() => pools.start({ runJob, concurrency: 0 })).toThrow(RangeError);
    expect(() => pools.start({ runJob, leaseMs: 1_000, heartbeatMs: 1_000 })).toThrow(RangeError);
  });
});

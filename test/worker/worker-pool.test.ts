import { jobRequest } from '../queue/job-requests.js';
import { sqliteFixture, type SqliteFixture } from '../queue/sqlite-fixture.js';
import { controlledRunner, memoryLog, poolStarter } from './worker-harness.js';

/** The pool against the real SQLite queue; runJob is a fake the test ends through promises. */
describe('worker pool', () => {
  let f: SqliteFixture;
  let logs: ReturnType<typeof memoryLog>;
  let pools: ReturnType<typeof poolStarter>;
  beforeEach(() => {
    f = sqliteFixture();
    logs = memoryLog();
    pools = poolStarter({ queue: f.queue, log: logs.log });
  });
  afterEach(async () => {
    await pools.stopAll();
    await f.cleanup();
  });

  it('runs a job once and records its result', async () => {
    let runs = 0;
    const pool = pools.start({ runJob: async () => ({ type: 'succeeded', result: { pr: ++runs } }) });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    await pool.drained();
    await pool.drained();
    expect(runs).toBe(1);
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 1, result: { pr: 1 } });
    expect(pool.running()).toBe(0);
  });

  it('a cancel while the job runs aborts its signal and ends it cancelled', async () => {
    const runner = controlledRunner();
    const pool = pools.start({ runJob: runner.runJob });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    const call = await runner.started(1);
    await f.queue.cancel(job.subject, '/agent cancel');
    expect(await call.aborted).toEqual({ kind: 'cancelled', reason: '/agent cancel' });
    call.finish({ type: 'failed', message: 'aborted', retryable: true }); // however runJob reports the abort
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'cancelled', cancelReason: '/agent cancel', error: null });
  });

  it('a new job for the subject supersedes the running one, which then ends cancelled', async () => {
    const runner = controlledRunner();
    const pool = pools.start({ runJob: runner.runJob, concurrency: 1 });
    const old = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    const call = await runner.started(1);
    const next = await f.queue.enqueue(jobRequest(1, 1, { kind: 'retry' }), { deliveryId: 'b' });
    expect(await call.aborted).toEqual({ kind: 'cancelled', reason: `superseded by job ${next.job.id}` });
    call.finish({ type: 'cancelled' });
    (await runner.started(2)).finish({ type: 'succeeded', result: null });
    await pool.drained();
    expect((await f.queue.get(old.job.id))?.state).toBe('cancelled');
    expect((await f.queue.get(next.job.id))?.state).toBe('succeeded');
  });

  it('a job that throws is logged and retried after its backoff', async () => {
    let runs = 0;
    const pool = pools.start({
      runJob: async () => {
        if (++runs === 1) throw new Error('model endpoint 503');
        return { type: 'succeeded', result: 'fixed' };
      },
    });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'queued', attempts: 1, error: 'model endpoint 503' });
    expect(logs.entries).toContainEqual(expect.objectContaining({ level: 'error', obj: expect.objectContaining({ jobId: job.id }) }));
    f.clock.advance(1_000); // the fixture's backoff base
    pool.wake();
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 2, result: 'fixed' });
  });

  it('a permanent failure is not retried', async () => {
    const pool = pools.start({ runJob: async () => ({ type: 'failed', message: 'no verify command', retryable: false }) });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    await pool.drained();
    f.clock.advance(3_600_000);
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'failed', attempts: 1, error: 'no verify command' });
  });

  it('a deferred job goes back to the queue until its time, its attempt not counted, its spend recorded', async () => {
    let runs = 0;
    const pool = pools.start({
      runJob: async () => {
        if (++runs === 1) return { type: 'deferred', runAfter: f.clock.now() + 3_600_000, reason: 'the daily cap is reached', spendUsd: 0.2 };
        return { type: 'succeeded', result: 'ran', spendUsd: 0.3 };
      },
    });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a', maxAttempts: 1 });
    pool.wake();
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, error: 'the daily cap is reached' });
    expect(logs.entries).toContainEqual(expect.objectContaining({ msg: 'job deferred', obj: expect.objectContaining({ jobId: job.id, state: 'queued' }) }));
    expect(await f.queue.spent('1', 0)).toBeCloseTo(0.2, 10);
    f.clock.advance(3_599_000);
    pool.wake();
    await pool.drained();
    expect(runs).toBe(1);
    f.clock.advance(1_000);
    pool.wake();
    await pool.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 1, result: 'ran' });
    expect(await f.queue.spent('1', 0)).toBeCloseTo(0.3, 10);
  });

  it('stop waits for a job that ends within the grace period', async () => {
    const runner = controlledRunner();
    const pool = pools.start({ runJob: runner.runJob });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    pool.wake();
    const call = await runner.started(1);
    const stopped = pool.stop({ graceMs: 60_000 });
    call.finish({ type: 'succeeded', result: 1 });
    await stopped;
    expect(call.signal.aborted).toBe(false);
    expect((await f.queue.get(job.id))?.state).toBe('succeeded');
  });

  it('stop after the grace period aborts and releases an unfinished job; another pool takes it', async () => {
    const runner = controlledRunner();
    const first = pools.start({ runJob: runner.runJob });
    const { job } = await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    first.wake();
    const call = await runner.started(1);
    await first.stop({ graceMs: 20 });
    expect(call.signal.reason).toEqual({ kind: 'shutdown' });
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'queued', attempts: 0 });
    call.finish({ type: 'failed', message: 'aborted', retryable: true }); // too late: the lease is gone
    const second = pools.start({ runJob: async () => ({ type: 'succeeded', result: 'resumed' }) });
    second.wake();
    await second.drained();
    expect(await f.queue.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 1, result: 'resumed' });
  });
});

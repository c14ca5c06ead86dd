import { LeaseLostError, type JobQueue } from '../../src/queue/types.js';
import { subjectKey } from '../../src/triggers/types.js';
import { describeAuthorizeContract } from './authorize-contract.js';
import { jobRequest } from './job-requests.js';

export interface ContractFixture {
  queue: JobQueue;
  /** Moves the queue's clock forward (lease expiry, backoff); on Redis, its key TTLs too. */
  clock: { advance(ms: number): void | Promise<void> };
  cleanup(): Promise<void>;
}

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };
const HOUR = 3_600_000;

/**
 * The promises of JobQueue (src/queue/types.ts), for any implementation. Time only moves through
 * `clock.advance`, so lease expiry and backoff are tested without waiting.
 */
export function describeJobQueueContract(name: string, setup: () => Promise<ContractFixture>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let f: ContractFixture;
    let q: JobQueue;
    beforeEach(async () => {
      f = await setup();
      q = f.queue;
    });
    afterEach(async () => f.cleanup());

    it('enqueues a queued job carrying its request', async () => {
      const request = jobRequest(1, 10, { instructions: 'try harder' });
      const { job, created, superseded } = await q.enqueue(request, { deliveryId: 'd1', maxAttempts: 5 });
      expect(created).toBe(true);
      expect(superseded).toEqual([]);
      expect(job).toMatchObject({ deliveryId: 'd1', dedupeKey: null, subject: subjectKey(request.repo, 10), repoKey: '1', state: 'queued', attempts: 0, maxAttempts: 5, cancelReason: null, error: null, request });
      expect(await q.get(job.id)).toEqual(job);
      expect(await q.get('no-such-job')).toBeNull();
    });

    it('never makes a second job for the same delivery id or dedupe key', async () => {
      const first = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1', dedupeKey: 'sha+checks' });
      const again = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1' });
      const sameKey = await q.enqueue(jobRequest(1, 11), { deliveryId: 'd2', dedupeKey: 'sha+checks' });
      expect(again).toEqual({ job: first.job, created: false, superseded: [] });
      expect(sameKey).toEqual({ job: first.job, created: false, superseded: [] });
      expect((await q.counts()).queued).toBe(1);
    });

    it('a new job for a subject cancels its queued job', async () => {
      const old = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1' });
      const other = await q.enqueue(jobRequest(1, 11), { deliveryId: 'd2' });
      const next = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd3' });
      expect(next.superseded).toEqual([old.job.id]);
      expect(await q.get(old.job.id)).toMatchObject({ state: 'cancelled', cancelReason: `superseded by job ${next.job.id}` });
      expect((await q.get(other.job.id))?.state).toBe('queued');
    });

    it('a new job for a subject flags its running job, and the heartbeat says so', async () => {
      const old = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1' });
      const claimed = (await q.claim(LEASE))!;
      const next = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd2' });
      expect(next.superseded).toEqual([old.job.id]);
      expect(await q.get(old.job.id)).toMatchObject({ state: 'running', cancelReason: `superseded by job ${next.job.id}` });
      expect(await q.heartbeat(claimed.lease, 60_000)).toEqual({ held: true, cancelReason: `superseded by job ${next.job.id}` });
      await q.markCancelled(claimed.lease);
      expect((await q.get(old.job.id))?.state).toBe('cancelled');
      expect((await q.claim(LEASE))?.job.id).toBe(next.job.id);
    });

    it('claims the oldest runnable job, counts the attempt, and returns null when none is left', async () => {
      const a = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const b = await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
      const first = (await q.claim(LEASE))!;
      expect(first.job).toMatchObject({ id: a.job.id, state: 'running', attempts: 1 });
      expect(first.lease.jobId).toBe(a.job.id);
      expect((await q.claim(LEASE))?.job.id).toBe(b.job.id);
      expect(await q.claim(LEASE)).toBeNull();
    });

    it('runs one job at a time per repository', async () => {
      await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const sameRepo = await q.enqueue(jobRequest(1, 2), { deliveryId: 'b' });
      const otherRepo = await q.enqueue(jobRequest(2, 1), { deliveryId: 'c' });
      const first = (await q.claim(LEASE))!;
      expect((await q.claim(LEASE))?.job.id).toBe(otherRepo.job.id);
      expect(await q.claim(LEASE)).toBeNull();
      await q.complete(first.lease, { pr: 1 });
      expect((await q.claim(LEASE))?.job.id).toBe(sameRepo.job.id);
    });

    it('stops claiming at maxRunning live leases', async () => {
      for (let i = 1; i <= 3; i++) await q.enqueue(jobRequest(i, 1), { deliveryId: `d${i}` });
      const limit = { ...LEASE, maxRunning: 2 };
      const first = (await q.claim(limit))!;
      expect(await q.claim(limit)).not.toBeNull();
      expect(await q.claim(limit)).toBeNull();
      await q.complete(first.lease, null);
      expect(await q.claim(limit)).not.toBeNull();
    });

    it('claims a job again when its lease expired; the old holder has lost it', async () => {
      const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const first = (await q.claim({ ...LEASE, workerId: 'crashed' }))!;
      await f.clock.advance(30_000);
      expect(await q.heartbeat(first.lease, 60_000)).toEqual({ held: true, cancelReason: null });
      await f.clock.advance(59_000);
      expect(await q.claim(LEASE)).toBeNull();
      await f.clock.advance(2_000);
      const second = (await q.claim(LEASE))!;
      expect(second.job).toMatchObject({ id: job.id, attempts: 2, state: 'running' });
      expect(second.lease.token).not.toBe(first.lease.token);
      expect(await q.heartbeat(first.lease, 60_000)).toEqual({ held: false, cancelReason: null });
      await expect(q.complete(first.lease, null)).rejects.toBeInstanceOf(LeaseLostError);
      await q.complete(second.lease, { ok: true });
      expect(await q.get(job.id)).toMatchObject({ state: 'succeeded', result: { ok: true } });
    });

    it('abandon expires the leases of a worker known to be gone, so its jobs resume at once', async () => {
      const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
      await q.claim({ ...LEASE, workerId: 'host-1' });
      const other = (await q.claim({ ...LEASE, workerId: 'host-2' }))!;
      expect(await q.claim(LEASE)).toBeNull();
      expect(await q.abandon('host-1')).toBe(1);
      expect(await q.abandon('nobody')).toBe(0);
      expect((await q.claim({ ...LEASE, workerId: 'host-1' }))?.job).toMatchObject({ id: job.id, attempts: 2 });
      expect(await q.heartbeat(other.lease, 60_000)).toEqual({ held: true, cancelReason: null });
    });

    it('refuses every lease operation with a wrong token', async () => {
      await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const { lease } = (await q.claim(LEASE))!;
      const forged = { jobId: lease.jobId, token: 'forged' };
      await expect(q.complete(forged, null)).rejects.toBeInstanceOf(LeaseLostError);
      await expect(q.fail(forged, { message: 'x', retryable: true })).rejects.toBeInstanceOf(LeaseLostError);
      await expect(q.release(forged)).rejects.toBeInstanceOf(LeaseLostError);
      await expect(q.markCancelled(forged)).rejects.toBeInstanceOf(LeaseLostError);
      expect(await q.heartbeat(forged, 1_000)).toEqual({ held: false, cancelReason: null });
      expect((await q.get(lease.jobId))?.state).toBe('running');
    });

    it('retries a retryable failure after a backoff, until attempts run out', async () => {
      const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a', maxAttempts: 2 });
      const first = (await q.claim(LEASE))!;
      expect(await q.fail(first.lease, { message: 'model 503', retryable: true })).toBe('queued');
      const waiting = (await q.get(job.id))!;
      expect(waiting).toMatchObject({ state: 'queued', error: 'model 503', attempts: 1 });
      expect(waiting.runAfter).toBeGreaterThan(waiting.updatedAt);
      expect(await q.claim(LEASE)).toBeNull();
      await f.clock.advance(HOUR);
      const second = (await q.claim(LEASE))!;
      expect(second.job).toMatchObject({ id: job.id, attempts: 2 });
      expect(await q.fail(second.lease, { message: 'model 503 again', retryable: true })).toBe('failed');
      expect(await q.get(job.id)).toMatchObject({ state: 'failed', error: 'model 503 again' });
    });

    it('does not retry a permanent failure', async () => {
      const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const { lease } = (await q.claim(LEASE))!;
      expect(await q.fail(lease, { message: 'invalid config', retryable: false })).toBe('failed');
      expect(await q.get(job.id)).toMatchObject({ state: 'failed', error: 'invalid config', attempts: 1 });
    });

    it('release gives the job back without using up an attempt', async () => {
      const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const first = (await q.claim(LEASE))!;
      await q.release(first.lease);
      expect(await q.get(job.id)).toMatchObject({ state: 'queued', attempts: 0 });
      expect((await q.claim(LEASE))?.job).toMatchObject({ id: job.id, attempts: 1 });
    });

    it('defer puts the job back until runAfter, keeps the reason and does not use up an attempt', async () => {
      const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a', maxAttempts: 1 });
      const first = (await q.claim(LEASE))!;
      const runAfter = first.job.updatedAt + HOUR;
      expect(await q.defer(first.lease, { runAfter, reason: 'the daily cap is reached' })).toBe('queued');
      expect(await q.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, runAfter, error: 'the daily cap is reached' });
      // The lease is over: the old token may do nothing more.
      await expect(q.defer(first.lease, { runAfter, reason: 'again' })).rejects.toBeInstanceOf(LeaseLostError);
      await expect(q.complete(first.lease, null)).rejects.toBeInstanceOf(LeaseLostError);
      expect(await q.claim(LEASE)).toBeNull();
      await f.clock.advance(HOUR - 1_000);
      expect(await q.claim(LEASE)).toBeNull();
      await f.clock.advance(2_000);
      // maxAttempts 1 and deferred once: it still runs, its first counted attempt.
      const second = (await q.claim(LEASE))!;
      expect(second.job).toMatchObject({ id: job.id, state: 'running', attempts: 1 });
      await q.complete(second.lease, { pr: 1 });
      expect((await q.get(job.id))?.state).toBe('succeeded');
    });

    it('a deferred job frees its repository for the next job, and records its spend once', async () => {
      const a = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const b = await q.enqueue(jobRequest(1, 2), { deliveryId: 'b' });
      const first = (await q.claim(LEASE))!;
      expect(first.job.id).toBe(a.job.id);
      expect(await q.claim(LEASE)).toBeNull();
      await q.defer(first.lease, { runAfter: first.job.updatedAt + HOUR, reason: 'rate limit', spendUsd: 0.4 });
      expect(await q.spent('1', 0)).toBeCloseTo(0.4, 10);
      const next = (await q.claim(LEASE))!;
      expect(next.job.id).toBe(b.job.id);
      await q.complete(next.lease, null);
      await f.clock.advance(HOUR + 1_000);
      const resumed = (await q.claim(LEASE))!;
      expect(resumed.job.id).toBe(a.job.id);
      // The resumed run's total includes the first attempt's 0.4: counted once.
      await q.complete(resumed.lease, null, 0.9);
      expect(await q.spent('1', 0)).toBeCloseTo(0.9, 10);
    });

    it('a job flagged for cancellation ends cancelled when it defers; a bad runAfter is refused', async () => {
      const { job } = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const { lease } = (await q.claim(LEASE))!;
      await expect(q.defer(lease, { runAfter: Number.NaN, reason: 'x' })).rejects.toBeInstanceOf(RangeError);
      await expect(q.defer({ jobId: lease.jobId, token: 'forged' }, { runAfter: 1, reason: 'x' })).rejects.toBeInstanceOf(LeaseLostError);
      expect((await q.get(job.id))?.state).toBe('running');
      await q.cancel(job.subject, '/agent cancel');
      expect(await q.defer(lease, { runAfter: job.createdAt + HOUR, reason: 'cap' })).toBe('cancelled');
      expect(await q.get(job.id)).toMatchObject({ state: 'cancelled', cancelReason: '/agent cancel' });
      await f.clock.advance(2 * HOUR);
      expect(await q.claim(LEASE)).toBeNull();
    });

    it('cancel ends queued jobs at once and flags running ones', async () => {
      const running = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      const { lease } = (await q.claim(LEASE))!;
      const subject = running.job.subject;
      const affected = await q.cancel(subject, '/agent cancel');
      expect(affected.map((j) => [j.id, j.state, j.cancelReason])).toEqual([[running.job.id, 'running', '/agent cancel']]);
      expect(await q.heartbeat(lease, 60_000)).toEqual({ held: true, cancelReason: '/agent cancel' });
      await q.markCancelled(lease);
      const queued = await q.enqueue(jobRequest(1, 1), { deliveryId: 'b' });
      const [cancelled] = await q.cancel(subject, 'issue closed');
      expect(cancelled).toMatchObject({ id: queued.job.id, state: 'cancelled', cancelReason: 'issue closed' });
      expect(await q.claim(LEASE)).toBeNull();
      expect(await q.cancel(subject, 'again')).toEqual([]);
    });

    it('lists a subject newest first', async () => {
      const a = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      await q.enqueue(jobRequest(1, 2), { deliveryId: 'other' });
      const b = await q.enqueue(jobRequest(1, 1), { deliveryId: 'b' });
      expect((await q.listBySubject(a.job.subject)).map((j) => j.id)).toEqual([b.job.id, a.job.id]);
      expect(await q.listBySubject('none#1')).toEqual([]);
    });

    it('noteOnce is true only the first time', async () => {
      expect(await q.noteOnce('refusal:1#2:fork')).toBe(true);
      expect(await q.noteOnce('refusal:1#2:fork')).toBe(false);
      expect(await q.noteOnce('refusal:1#3:fork')).toBe(true);
    });

    it('prune forgets finished jobs older than the cutoff, with their dedupe keys and notes, and keeps the rest', async () => {
      const done = await q.enqueue(jobRequest(1, 1), { deliveryId: 'a', dedupeKey: 'sha+checks' });
      const failed = await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
      const waiting = await q.enqueue(jobRequest(3, 1), { deliveryId: 'c' });
      await q.complete((await q.claim(LEASE))!.lease, { pr: 1 });
      await q.fail((await q.claim(LEASE))!.lease, { message: 'no', retryable: false });
      await q.noteOnce('refusal:old');
      await f.clock.advance(HOUR);
      const cutoff = waiting.job.createdAt + HOUR / 2;
      const recent = await q.enqueue(jobRequest(4, 1), { deliveryId: 'd' });
      await q.claim(LEASE); // c (repo 3) is running now, so it is not finished
      const recentDone = (await q.claim(LEASE))!;
      await q.complete(recentDone.lease, null);
      expect(await q.prune(cutoff, 1)).toBe(1);
      expect(await q.prune(cutoff, 100)).toBe(1);
      expect(await q.prune(cutoff, 100)).toBe(0);
      expect(await q.get(done.job.id)).toBeNull();
      expect(await q.get(failed.job.id)).toBeNull();
      expect(await q.listBySubject(done.job.subject)).toEqual([]);
      expect((await q.get(waiting.job.id))?.state).toBe('running');
      expect((await q.get(recent.job.id))?.state).toBe('succeeded');
      expect(await q.counts()).toEqual({ queued: 0, running: 1, succeeded: 1, failed: 0, cancelled: 0 });
      expect(await q.noteOnce('refusal:old')).toBe(true);
      const again = await q.enqueue(jobRequest(1, 1), { deliveryId: 'e', dedupeKey: 'sha+checks' });
      expect(again.created).toBe(true);
    });

    it('counts every state, zeros included', async () => {
      expect(await q.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
      for (let i = 1; i <= 4; i++) await q.enqueue(jobRequest(i, 1), { deliveryId: `d${i}` });
      await q.complete((await q.claim(LEASE))!.lease, null);
      await q.fail((await q.claim(LEASE))!.lease, { message: 'no', retryable: false });
      await q.claim(LEASE);
      expect(await q.counts()).toEqual({ queued: 1, running: 1, succeeded: 1, failed: 1, cancelled: 0 });
    });

    describeAuthorizeContract(() => q, { advance: (ms) => f.clock.advance(ms) });
  });
}

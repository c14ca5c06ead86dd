import type { JobQueue } from '../../src/queue/types.js';
import { subjectKey } from '../../src/triggers/types.js';
import { jobRequest } from './job-requests.js';

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };

/**
 * JobQueue.authorize and awaitingAuthorization (a job recorded before its sender was checked),
 * for any implementation; part of the JobQueue contract (job-queue-contract.ts runs it).
 */
export function describeAuthorizeContract(queue: () => JobQueue, clock: { advance(ms: number): void | Promise<void> }): void {
  describe('authorisation after the answer', () => {
    it('records an authorizing job that is never claimed and supersedes nothing, counted as waiting', async () => {
      const q = queue();
      const running = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1' });
      const claimed = (await q.claim(LEASE))!;
      const pending = await q.enqueue(jobRequest(2, 20), { deliveryId: 'd2', authorize: 'refusal' });
      const sameSubject = await q.enqueue(jobRequest(1, 10, { sender: 'someone' }), { deliveryId: 'd3', authorize: 'outsider' });
      expect(pending).toMatchObject({ created: true, superseded: [], job: { state: 'authorizing', authorize: 'refusal', attempts: 0 } });
      expect(sameSubject.superseded).toEqual([]);
      expect(await q.claim(LEASE)).toBeNull();
      expect(await q.heartbeat(claimed.lease, 60_000)).toEqual({ held: true, cancelReason: null });
      expect(await q.get(running.job.id)).toMatchObject({ state: 'running', cancelReason: null });
      expect(await q.counts()).toEqual({ queued: 2, running: 1, succeeded: 0, failed: 0, cancelled: 0 });
    });

    it('lets an allowed job in: queued, claimable, superseding the older jobs of its subject', async () => {
      const q = queue();
      const old = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1' });
      const pending = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd2', authorize: 'refusal' });
      const decided = await q.authorize(pending.job.id, true);
      expect(decided).toMatchObject({ changed: true, superseded: [old.job.id], job: { id: pending.job.id, state: 'queued' } });
      expect(await q.get(old.job.id)).toMatchObject({ state: 'cancelled', cancelReason: `superseded by job ${pending.job.id}` });
      expect((await q.claim(LEASE))?.job.id).toBe(pending.job.id);
      expect(await q.authorize(pending.job.id, true)).toMatchObject({ changed: false, superseded: [] });
      expect(await q.authorize(pending.job.id, false)).toMatchObject({ changed: false, job: { state: 'running' } });
    });

    it('removes a refused job as if never enqueued: its delivery id and dedupe key are free again', async () => {
      const q = queue();
      const pending = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1', dedupeKey: 'content', authorize: 'outsider' });
      const duplicate = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd2', dedupeKey: 'content', authorize: 'outsider' });
      expect(duplicate).toMatchObject({ created: false, job: { id: pending.job.id } });
      const refused = await q.authorize(pending.job.id, false);
      expect(refused).toMatchObject({ changed: true, superseded: [], job: { id: pending.job.id, authorize: 'outsider' } });
      expect(await q.get(pending.job.id)).toBeNull();
      expect(await q.listBySubject(subjectKey(jobRequest(1, 10).repo, 10))).toEqual([]);
      expect(await q.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
      expect(await q.authorize(pending.job.id, false)).toEqual({ job: null, changed: false, superseded: [] });
      const byCollaborator = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd3', dedupeKey: 'content' });
      expect(byCollaborator.created).toBe(true);
    });

    it('newest wins: letting a job in, or enqueueing one, cancels the older authorizing jobs of its subject', async () => {
      const q = queue();
      const older = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1', authorize: 'refusal' });
      const newer = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd2', authorize: 'refusal' });
      expect(await q.authorize(newer.job.id, true)).toMatchObject({ changed: true, superseded: [older.job.id] });
      expect(await q.get(older.job.id)).toMatchObject({ state: 'cancelled', cancelReason: `superseded by job ${newer.job.id}` });
      const late = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd3', authorize: 'refusal' });
      const latest = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd4' });
      expect(latest.superseded).toEqual([newer.job.id, late.job.id]);
      const slow = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd5', authorize: 'refusal' });
      const direct = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd6' });
      expect(direct.superseded).toEqual([latest.job.id, slow.job.id]);
      expect(await q.authorize(slow.job.id, true)).toMatchObject({ changed: false, superseded: [], job: { state: 'cancelled' } });
      expect((await q.claim(LEASE))?.job.id).toBe(direct.job.id);
    });

    it('cancel of a subject cancels its authorizing job; authorising it then changes nothing', async () => {
      const q = queue();
      const pending = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1', authorize: 'refusal' });
      const affected = await q.cancel(subjectKey(jobRequest(1, 10).repo, 10), '/agent cancel');
      expect(affected.map((j) => [j.id, j.state])).toEqual([[pending.job.id, 'cancelled']]);
      expect(await q.authorize(pending.job.id, true)).toMatchObject({ changed: false, job: { state: 'cancelled' } });
      expect(await q.claim(LEASE)).toBeNull();
    });

    it('lists the jobs a stopped receiver left authorizing, oldest first, until they are decided', async () => {
      const q = queue();
      const first = await q.enqueue(jobRequest(1, 10), { deliveryId: 'd1', authorize: 'refusal' });
      await clock.advance(1_000);
      const second = await q.enqueue(jobRequest(2, 10), { deliveryId: 'd2', authorize: 'quiet' });
      await q.enqueue(jobRequest(3, 10), { deliveryId: 'd3' });
      await clock.advance(1_000);
      const now = second.job.createdAt + 1_000;
      expect((await q.awaitingAuthorization(now, 10)).map((j) => j.id)).toEqual([first.job.id, second.job.id]);
      expect((await q.awaitingAuthorization(second.job.createdAt, 10)).map((j) => j.id)).toEqual([first.job.id]);
      expect((await q.awaitingAuthorization(now, 1)).map((j) => j.id)).toEqual([first.job.id]);
      await q.authorize(first.job.id, true);
      await q.authorize(second.job.id, false);
      expect(await q.awaitingAuthorization(now, 10)).toEqual([]);
    });
  });
}

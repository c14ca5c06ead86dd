import { LeaseLostError, type JobQueue, type SpendCap } from '../../src/queue/types.js';
import type { ContractFixture } from './job-queue-contract.js';
import { jobRequest } from './job-requests.js';

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };
const HOUR = 3_600_000;
/** jobRequest's installation. */
const INSTALLATION = '7';

const cap = (over: Partial<SpendCap> & Pick<SpendCap, 'scope' | 'key' | 'limitUsd'>): SpendCap => ({ window: 'day', since: 0, resetsAt: 10 * HOUR, ...over });

/**
 * JobQueue's money (src/queue/types.ts), for any implementation: spend recorded once with the
 * job's end, and budget reservations (`reserve`) so concurrent jobs cannot both pass a cap only
 * one fits under; the recorded spend replaces a reservation when its job ends.
 */
export function describeSpendContract(name: string, setup: () => Promise<ContractFixture>): void {
  describe(`JobQueue spend contract: ${name}`, () => {
    let f: ContractFixture;
    let q: JobQueue;
    beforeEach(async () => {
      f = await setup();
      q = f.queue;
    });
    afterEach(async () => f.cleanup());

    it('two repositories of one installation, a budget that fits one reservation: the first runs, the second waits; then the numbers add up', async () => {
      await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
      const first = (await q.claim(LEASE))!;
      const second = (await q.claim(LEASE))!;
      const installation = cap({ scope: 'installation', key: INSTALLATION, window: 'month', limitUsd: 1.5 });
      const repoCap = (key: string) => cap({ scope: 'repo', key, limitUsd: 5 });
      const [one, two] = await Promise.all([
        q.reserve(first.lease, { usd: 1, caps: [installation, repoCap('1')] }),
        q.reserve(second.lease, { usd: 1, caps: [installation, repoCap('2')] }),
      ]);
      expect(one).toEqual({ ok: true });
      expect(two).toEqual({ ok: false, cap: installation, spentUsd: 0, reservedUsd: 1, resetsAt: installation.resetsAt });
      // The first spends 0.3 of its 1.0 and completes: its spend replaces its reservation.
      await q.complete(first.lease, { pr: 1 }, 0.3);
      expect(await q.spentByInstallation(INSTALLATION, 0)).toBeCloseTo(0.3, 10);
      expect(await q.spent('1', 0)).toBeCloseTo(0.3, 10);
      expect(await q.reserve(second.lease, { usd: 1, caps: [installation, repoCap('2')] })).toEqual({ ok: true });
      // 0.3 spent + 1.0 reserved by the second leave 0.2: a third job of the installation fits with 0.2, not with 0.21.
      await q.enqueue(jobRequest(3, 1), { deliveryId: 'c' });
      const third = (await q.claim(LEASE))!;
      expect(await q.reserve(third.lease, { usd: 0.2, caps: [installation] })).toEqual({ ok: true });
      await q.release(third.lease);
      const again = (await q.claim(LEASE))!;
      expect(await q.reserve(again.lease, { usd: 0.21, caps: [installation] })).toMatchObject({ ok: false, spentUsd: 0.3, reservedUsd: 1 });
      await q.complete(second.lease, null, 1);
      expect(await q.spentByInstallation(INSTALLATION, 0)).toBeCloseTo(1.3, 10);
      expect(await q.spent('2', 0)).toBeCloseTo(1, 10);
    });

    it('a crash (lease expiry) frees the reservation', async () => {
      await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      await q.enqueue(jobRequest(2, 1), { deliveryId: 'b' });
      const installation = cap({ scope: 'installation', key: INSTALLATION, limitUsd: 1 });
      const crashed = (await q.claim({ ...LEASE, workerId: 'crashed' }))!;
      expect(await q.reserve(crashed.lease, { usd: 1, caps: [installation] })).toEqual({ ok: true });
      const other = (await q.claim(LEASE))!;
      expect(await q.reserve(other.lease, { usd: 1, caps: [installation] })).toMatchObject({ ok: false, reservedUsd: 1 });
      await f.clock.advance(LEASE.leaseMs / 2);
      await q.heartbeat(other.lease, LEASE.leaseMs);
      await f.clock.advance(LEASE.leaseMs / 2 + 1_000);
      expect(await q.reserve(other.lease, { usd: 1, caps: [installation] })).toEqual({ ok: true });
      // Claimed again, the crashed job holds no reservation until it reserves again.
      await q.complete(other.lease, null, 0.5);
      const resumed = (await q.claim(LEASE))!;
      expect(resumed.job.id).toBe(crashed.job.id);
      expect(await q.reserve(resumed.lease, { usd: 0.5, caps: [installation] })).toEqual({ ok: true });
      expect(await q.reserve(resumed.lease, { usd: 0.6, caps: [installation] })).toMatchObject({ ok: false, spentUsd: 0.5, reservedUsd: 0 });
    });

    it('failing, deferring and releasing drop the reservation; a cap counts only the spend of its window', async () => {
      for (let i = 1; i <= 4; i++) await q.enqueue(jobRequest(i, 1), { deliveryId: `d${i}` });
      const installation = cap({ scope: 'installation', key: INSTALLATION, limitUsd: 1 });
      const jobs = [];
      for (let i = 0; i < 4; i++) jobs.push((await q.claim(LEASE))!);
      const [a, b, c, d] = jobs as [(typeof jobs)[0], (typeof jobs)[0], (typeof jobs)[0], (typeof jobs)[0]];
      expect(await q.reserve(a.lease, { usd: 1, caps: [installation] })).toEqual({ ok: true });
      await q.fail(a.lease, { message: 'x', retryable: false });
      expect(await q.reserve(b.lease, { usd: 1, caps: [installation] })).toEqual({ ok: true });
      await q.defer(b.lease, { runAfter: b.job.updatedAt + HOUR, reason: 'later' });
      expect(await q.reserve(c.lease, { usd: 1, caps: [installation] })).toEqual({ ok: true });
      await q.release(c.lease);
      expect(await q.reserve(d.lease, { usd: 1, caps: [installation] })).toEqual({ ok: true });
      await q.complete(d.lease, null, 0.75);
      // Yesterday's spend is outside today's window.
      await f.clock.advance(HOUR);
      const e = (await q.claim(LEASE))!;
      const now = e.job.updatedAt;
      const today = cap({ scope: 'repo', key: e.job.repoKey, limitUsd: 1, since: now - HOUR / 2, resetsAt: now + HOUR });
      const byInstallation = { ...installation, since: now - HOUR / 2 };
      expect(await q.reserve(e.lease, { usd: 1, caps: [byInstallation, today] })).toEqual({ ok: true });
      expect(await q.reserve(e.lease, { usd: 1, caps: [installation] })).toMatchObject({ ok: false, spentUsd: 0.75, reservedUsd: 0 });
    });

    it('a daily cap already spent refuses with the cap, the spend and when it resets; bad input is refused', async () => {
      await q.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
      await q.enqueue(jobRequest(1, 2), { deliveryId: 'b' });
      await q.complete((await q.claim(LEASE))!.lease, null, 5.2);
      const next = (await q.claim(LEASE))!;
      const daily = cap({ scope: 'repo', key: '1', limitUsd: 5, resetsAt: 86_400_000 * 20_000 });
      expect(await q.reserve(next.lease, { usd: 0, caps: [daily] })).toEqual({ ok: false, cap: daily, spentUsd: 5.2, reservedUsd: 0, resetsAt: daily.resetsAt });
      await expect(q.reserve(next.lease, { usd: 1, caps: [cap({ scope: 'repo', key: '2', limitUsd: 5 })] })).rejects.toBeInstanceOf(RangeError);
      await expect(q.reserve(next.lease, { usd: 1, caps: [cap({ scope: 'installation', key: '8', limitUsd: 5 })] })).rejects.toBeInstanceOf(RangeError);
      await expect(q.reserve(next.lease, { usd: Number.NaN, caps: [] })).rejects.toBeInstanceOf(RangeError);
      await expect(q.reserve({ jobId: next.lease.jobId, token: 'forged' }, { usd: 1, caps: [] })).rejects.toBeInstanceOf(LeaseLostError);
      expect(await q.reserve(next.lease, { usd: 1, caps: [] })).toEqual({ ok: true });
    });

    it('records spend with completion, failure and cancellation, per repository and since a time', async () => {
      for (let i = 1; i <= 3; i++) await q.enqueue(jobRequest(1, i), { deliveryId: `d${i}` });
      await q.enqueue(jobRequest(2, 1), { deliveryId: 'other' });
      const start = (await q.claim(LEASE))!;
      const other = (await q.claim(LEASE))!;
      expect(other.job.repoKey).toBe('2');
      await q.complete(start.lease, { pr: 1 }, 0.84);
      await q.complete(other.lease, null, 5);
      await f.clock.advance(HOUR);
      const failing = (await q.claim(LEASE))!;
      await q.fail(failing.lease, { message: 'boom', retryable: false, spendUsd: 0.25 });
      const cancelled = (await q.claim(LEASE))!;
      await q.markCancelled(cancelled.lease, 0.01);
      expect(await q.spent('1', 0)).toBeCloseTo(1.1, 10);
      expect(await q.spent('1', Date.parse('2100-01-01'))).toBe(0);
      expect(await q.spent('2', 0)).toBeCloseTo(5, 10);
      expect(await q.spent('3', 0)).toBe(0);
    });

    it('counts a spend once: a lost lease records nothing, a retried attempt records the new total of the job', async () => {
      await q.enqueue(jobRequest(1, 1), { deliveryId: 'd1' });
      const first = (await q.claim(LEASE))!;
      await q.fail(first.lease, { message: 'transient', retryable: true, spendUsd: 0.5 });
      // The lease is over: a repeated record (a crashed worker's retry of the call) is refused and adds nothing.
      await expect(q.complete(first.lease, null, 0.5)).rejects.toBeInstanceOf(LeaseLostError);
      expect(await q.spent('1', 0)).toBeCloseTo(0.5, 10);
      await f.clock.advance(HOUR);
      const second = (await q.claim(LEASE))!;
      expect(second.job.attempts).toBe(2);
      // The resumed run's usage includes the first attempt's: its total is 0.75, not 0.5 + 0.75.
      await q.complete(second.lease, null, 0.75);
      expect(await q.spent('1', 0)).toBeCloseTo(0.75, 10);
    });
  });
}

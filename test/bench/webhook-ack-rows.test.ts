import { describe, expect, it } from '@jest/globals';
import type { AckPhase, AckUnderJobsBench } from '../../bench/ack-under-jobs.js';
import { mainThreadCpuMs } from '../../bench/thread-cpu.js';
import { ackUnderJobsRows } from '../../bench/webhook-ack-rows.js';

const phase = (p50: number, p99: number, cpuMsPerDelivery: number | null, loopDelayP99Ms: number): AckPhase => ({
  ack: { count: 1_000, failed: 0, late: 0, p50, p99, max: p99 + 1 },
  lagMaxMs: 2,
  cpuMsPerDelivery,
  loopDelayP99Ms,
  runningMin: 4,
  runningMax: 4,
  lost: 0,
  undecided: 0,
});

const bench = (idle: AckPhase, busy: AckPhase): AckUnderJobsBench => ({ perSecond: 200, seconds: 5, permissionDelayMs: 300, configDelayMs: 0, senders: 500, idle, busy, busyJobsEnded: 0 });

describe('ackUnderJobsRows', () => {
  it('sets the busy phase against the idle one, with the receiver CPU per delivery against the rate’s budget', () => {
    const rows = ackUnderJobsRows(bench(phase(4, 20, 2.5, 12), phase(5, 30, 3, 15)));
    expect(rows[1]).toEqual([expect.stringContaining('4 jobs running (200/s × 5 s'), 'p50 5.0 ms / p99 30.0 ms', 'idle: p50 4.0 ms / p99 20.0 ms', '1.25 / 1.50', 'p99 < 50 ms, ≤ 2× idle p99 (met)']);
    expect(rows.find((r) => r[0].includes('CPU per delivery'))).toEqual([expect.any(String), 'busy 3.00 ms', 'idle 2.50 ms', '1.20', '< 5.0 ms (200/s on one core)']);
    expect(rows.find((r) => r[0].includes('event-loop delay'))?.slice(1, 3)).toEqual(['busy 15.0 ms', 'idle 12.0 ms']);
  });

  it('adds the phase with four jobs starting, against the idle one and without a goal, only when it was measured', () => {
    expect(ackUnderJobsRows(bench(phase(4, 20, 2.5, 12), phase(5, 30, 3, 15))).some((r) => r[0].includes('starting'))).toBe(false);
    const rows = ackUnderJobsRows({ ...bench(phase(4, 20, 2.5, 12), phase(5, 30, 3, 15)), starting: phase(6, 40, 2.8, 18) });
    expect(rows.find((r) => r[0].includes('4 jobs starting during the stream'))).toEqual([expect.any(String), 'p50 6.0 ms / p99 40.0 ms', 'idle: p50 4.0 ms / p99 20.0 ms', '1.50 / 2.00', '']);
    expect(rows.at(-1)?.[1]).toBe('18.0 ms / 2.80 ms');
  });

  it('says NOT met past 2× the idle p99 even under 50 ms, and n/a without /proc', () => {
    const rows = ackUnderJobsRows(bench(phase(4, 10, null, 12), phase(5, 30, null, 15)));
    expect(rows[1]![4]).toBe('p99 < 50 ms, ≤ 2× idle p99 (NOT met)');
    expect(rows.find((r) => r[0].includes('CPU per delivery'))?.slice(1, 4)).toEqual(['busy n/a (no /proc)', 'idle n/a (no /proc)', '']);
  });
});

describe('mainThreadCpuMs', () => {
  it('grows with work done on this thread', () => {
    const before = mainThreadCpuMs();
    if (before === null) return expect(process.platform).not.toBe('linux');
    // Spin until a tick (10 ms of CPU) is counted; on a crowded machine that takes longer than 10 ms of wall time.
    const giveUp = performance.now() + 5_000;
    let now = before;
    while (now === before && performance.now() < giveUp) now = mainThreadCpuMs()!;
    expect(now).toBeGreaterThan(before);
    expect(now % 10).toBe(0);
  });
});

import { startJobRetention, type RetentionTimer } from '../../src/worker/job-retention-timer.js';
import type { SweepResult } from '../../src/worker/job-retention.js';
import { memoryLog } from './worker-harness.js';

const EMPTY: SweepResult = { removed: [], bytes: 0, kept: 3, skipped: [], failed: [] };

/** A sweep the test answers: each call waits for `answer()`, so the test decides when it ends. */
function controlledSweep() {
  const calls: Array<(r: SweepResult | Error) => void> = [];
  let waiters: Array<{ n: number; resolve: () => void }> = [];
  const wake = () => {
    waiters.filter((w) => calls.length >= w.n).forEach((w) => w.resolve());
    waiters = waiters.filter((w) => calls.length < w.n);
  };
  return {
    calls,
    sweep: () =>
      new Promise<SweepResult>((resolve, reject) => {
        calls.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
        wake();
      }),
    /** Resolves once the sweep has been called `n` times. */
    called: (n: number) =>
      new Promise<void>((resolve) => {
        waiters.push({ n, resolve });
        wake();
      }),
  };
}

describe('startJobRetention', () => {
  let timer: RetentionTimer | null = null;
  afterEach(async () => timer?.stop());

  it('sweeps at start, logs what it removed at info, and sweeps again later', async () => {
    const s = controlledSweep();
    const logs = memoryLog();
    timer = startJobRetention({ sweep: s.sweep, intervalMs: 5, log: logs.log });
    expect(s.calls).toHaveLength(1); // at start, before anything else
    s.calls[0]!({ ...EMPTY, removed: [{ id: 'a', bytes: 100 }, { id: 'b', bytes: 50 }], bytes: 150 });
    await s.called(2); // the interval, once the first sweep has ended and logged
    expect(logs.entries[0]).toMatchObject({ level: 'info', obj: { removed: 2, bytes: 150 } });
    s.calls[1]!(EMPTY);
    await s.called(3);
    s.calls[2]!(EMPTY);
    await timer.stop();
    expect(logs.entries).toHaveLength(1); // nothing removed: nothing logged
  });

  it('never overlaps sweeps, and a failing sweep is a warning, not an error thrown', async () => {
    const s = controlledSweep();
    const logs = memoryLog();
    timer = startJobRetention({ sweep: s.sweep, intervalMs: 3_600_000, log: logs.log });
    const second = timer.sweepNow();
    expect(s.calls).toHaveLength(1); // joined the sweep in flight
    s.calls[0]!(new Error('disk on fire'));
    await expect(second).resolves.toBeUndefined();
    expect(logs.entries).toEqual([expect.objectContaining({ level: 'warn', obj: { err: 'Error: disk on fire' } })]);
    const third = timer.sweepNow();
    s.calls[1]!({ ...EMPTY, failed: [{ id: 'x', error: 'EACCES' }] });
    await third;
    expect(logs.entries[1]).toMatchObject({ level: 'warn', obj: { failed: [{ id: 'x', error: 'EACCES' }] } });
  });

  it('prunes the queue after each directory sweep, logs what it forgot, and a failing prune is a warning', async () => {
    const logs = memoryLog();
    const answers: Array<number | Error> = [2, new Error('Redis down'), 0];
    const order: string[] = [];
    timer = startJobRetention({
      sweep: async () => (order.push('dirs'), EMPTY),
      prune: async () => {
        order.push('prune');
        const answer = answers.shift()!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      intervalMs: 3_600_000,
      log: logs.log,
    });
    await timer.sweepNow();
    await timer.sweepNow();
    await timer.sweepNow();
    expect(order).toEqual(['dirs', 'prune', 'dirs', 'prune', 'dirs', 'prune']);
    expect(logs.entries).toEqual([
      expect.objectContaining({ level: 'info', obj: { jobs: 2 } }),
      expect.objectContaining({ level: 'warn', obj: { err: 'Error: Redis down' } }),
    ]);
  });

  it('evicts the dependency cache after each directory sweep; a failing eviction is a warning', async () => {
    const logs = memoryLog();
    const answers: Array<{ removed: number; removedBytes: number; kept: number; keptBytes: number } | Error> = [
      { removed: 2, removedBytes: 900, kept: 1, keptBytes: 100 },
      new Error('EACCES'),
      { removed: 0, removedBytes: 0, kept: 1, keptBytes: 100 },
    ];
    const order: string[] = [];
    timer = startJobRetention({
      sweep: async () => (order.push('dirs'), EMPTY),
      sweepCache: async () => {
        order.push('cache');
        const answer = answers.shift()!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      intervalMs: 3_600_000,
      log: logs.log,
    });
    await timer.sweepNow();
    await timer.sweepNow();
    await timer.sweepNow();
    expect(order).toEqual(['dirs', 'cache', 'dirs', 'cache', 'dirs', 'cache']);
    expect(logs.entries).toEqual([
      expect.objectContaining({ level: 'info', obj: { removed: 2, bytes: 900, kept: 1, keptBytes: 100 } }),
      expect.objectContaining({ level: 'warn', obj: { err: 'Error: EACCES' } }),
    ]);
  });

  it('stop waits for the sweep in flight and no sweep starts afterwards', async () => {
    const s = controlledSweep();
    timer = startJobRetention({ sweep: s.sweep, intervalMs: 1, log: memoryLog().log });
    let stopped = false;
    const stopping = timer.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    s.calls[0]!(EMPTY);
    await stopping;
    await timer.sweepNow();
    expect(s.calls).toHaveLength(1);
  });
});

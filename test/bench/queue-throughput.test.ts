import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { benchQueueThroughput, queueThroughputRows } from '../../bench/queue-throughput.js';

const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('gf-bench-queue-'));

/** The queue benchmark at a tiny size: real figures, no timing thresholds. */
describe('queue throughput bench', () => {
  it('measures both phases against :memory: and keeps exactly one job per distinct delivery', async () => {
    const before = leftovers();
    const r = await benchQueueThroughput({ jobs: 60, burst: 100 });
    for (const rate of [r.file, r.memory].flatMap((p) => [p.enqueuePerSec, p.claimCompletePerSec])) {
      expect(Number.isFinite(rate) && rate > 0).toBe(true);
    }
    expect(r.burst).toEqual({ deliveries: 100, distinct: 90, created: 90, stored: 90 });
    const rows = queueThroughputRows(r);
    expect(rows).toHaveLength(3);
    expect(rows[2]![4]).toBe('= 1 (met)');
    expect(leftovers()).toEqual(before);
  });
});

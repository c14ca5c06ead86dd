import { createBudgetTracker } from '../../src/job/budget-tracker.js';
import { jobRequest } from '../queue/job-requests.js';
import { sqliteFixture, type SqliteFixture } from '../queue/sqlite-fixture.js';

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };
const DAY = 86_400_000;

/** The budget gauge's figures, from a real SQLite queue whose clock the test moves. */
describe('budget tracker', () => {
  let f: SqliteFixture;
  beforeEach(() => (f = sqliteFixture()));
  afterEach(async () => f.cleanup());

  it("reports each noted cap's limit minus the spend in its current window, and a window's reset", async () => {
    const tracker = createBudgetTracker(f.queue, f.clock.now);
    expect(await tracker.remaining()).toEqual([]);
    await f.queue.enqueue(jobRequest(1, 1), { deliveryId: 'a' });
    await f.queue.complete((await f.queue.claim(LEASE))!.lease, null, 0.81);
    const cap = { since: 0, resetsAt: 0 };
    tracker.note(
      [
        { scope: 'installation', key: '7', window: 'month', limitUsd: 10, ...cap },
        { scope: 'repo', key: '1', window: 'day', limitUsd: 1, ...cap },
      ],
      'octo/repo-1',
    );
    expect(await tracker.remaining()).toEqual([
      { scope: 'installation', window: 'month', key: '7', remainingUsd: 9.19 },
      { scope: 'repo', window: 'day', key: 'octo/repo-1', remainingUsd: 0.19 },
    ]);
    f.clock.advance(DAY);
    expect((await tracker.remaining())[1]).toEqual({ scope: 'repo', window: 'day', key: 'octo/repo-1', remainingUsd: 1 });
  });
});

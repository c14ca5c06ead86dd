import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import type { ChatModel } from '../../src/model/types.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

// Each reply: 120,000 prompt tokens (40,000 cached) and 2,000 completion tokens at $2.50 / $1.25 / $10
// per million = $0.27; a fix is three replies, $0.81. The worst case of a next call is $0.416, so a
// $1.00 budget lets all three happen (0.54 + 0.416 ≤ 1).
const usage = { prompt: 120_000, completion: 2_000, cached: 40_000 };
const FIX = turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]);
const SCRIPT: ScriptTurn[] = [FIX, turn(['run_tests', {}]), turn(['finish', { summary: 'add() adds now.' }])].map((t) => ({ ...t, usage }));
const PRICES = { scripted: { input: 2.5, cachedInput: 1.25, output: 10 } };
const REPO_KEY = '1296269';
const issue = (h: Harness, number: number) => labeled(h, { issue: { ...(labeled(h)['issue'] as object), number } });

/** The scripted model, counting the requests it answers. */
function countingModel(): { model: ChatModel; requests: () => number } {
  const scripted = new ScriptedModel(SCRIPT);
  let requests = 0;
  return {
    model: { name: scripted.name, complete: (request) => ((requests += 1), scripted.complete(request)) },
    requests: () => requests,
  };
}

describe('spend caps over time', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  const statusOn = (number: number) => h.state.comments.filter((c) => c.issue === number && c.body.includes('greenfix:status'));

  it.each(['sqlite', 'redis'] as const)('%s: a daily cap reached: the next trigger waits with one comment naming cap, spend and reset, and runs after midnight UTC', async (kind) => {
    let now = Date.UTC(2026, 11, 1, 22, 0); // 1 Dec 2026, 22:00 UTC
    const counted = countingModel();
    h = await startHarness({
      store: kind,
      files: BUGGY_REPO,
      script: SCRIPT,
      model: counted.model,
      prices: PRICES,
      now: () => now,
      caps: { repoDailyUsd: 1, jobReserveUsd: 1 },
      state: { config: 'verify: bash test.sh\n' },
    });
    await h.send('issues', issue(h, 7));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    expect(await h.queue.spent(REPO_KEY, Date.UTC(2026, 11, 1))).toBeCloseTo(0.81, 10);
    expect(counted.requests()).toBe(3);

    // $0.81 of $1.00 spent today: a job reserving $1.00 does not fit. It waits, and says so once.
    await h.send('issues', issue(h, 8));
    await h.settle();
    expect(counted.requests()).toBe(3);
    const [job] = await h.queue.listBySubject(`${REPO_KEY}#8`);
    expect(job).toMatchObject({ state: 'queued', attempts: 0, runAfter: Date.UTC(2026, 11, 2) });
    const waiting = statusOn(8);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.body).toContain(
      "waiting: the repository's daily cap of $1.00 has no room for this job (it resets at 2026-12-02 00:00 UTC): $0.81 spent today, and this job reserves $1.00",
    );
    const metrics = await (await fetch(`${h.app.url}/metrics`)).text();
    expect(metrics).toMatch(/^greenfix_budget_remaining_usd\{scope="repo",window="day",key="[^"]+\/[^"]+"\} 0\.19\d*$/m);

    // Still the same day: the job is not claimed; nothing runs.
    now = Date.UTC(2026, 11, 1, 23, 59);
    h.app.pool!.wake();
    await h.settle();
    expect(counted.requests()).toBe(3);

    // After midnight UTC the window resets: the job is claimed again, runs, and opens its PR; the
    // one status comment is edited in place.
    now = Date.UTC(2026, 11, 2, 0, 0, 1);
    h.app.pool!.wake();
    await h.settle();
    expect(counted.requests()).toBe(6);
    expect(h.state.pulls).toHaveLength(2);
    expect(await h.queue.get(job!.id)).toMatchObject({ state: 'succeeded', attempts: 1 });
    const done = statusOn(8);
    expect(done).toHaveLength(1);
    expect(done[0]!.body).toContain('This fix cost $0.81.');
    expect(done[0]!.body).not.toContain('waiting:');
    expect(await h.queue.spent(REPO_KEY, Date.UTC(2026, 11, 2))).toBeCloseTo(0.81, 10);
    const after = await (await fetch(`${h.app.url}/metrics`)).text();
    expect(after).toMatch(/^greenfix_budget_remaining_usd\{scope="repo",window="day",key="[^"]+"\} 0\.19\d*$/m);
  }, 120_000);

  it('caps.on_reached: refuse ends the job failed, not retried, with the same sentence; no model call', async () => {
    const now = Date.UTC(2026, 11, 31, 12, 0);
    const counted = countingModel();
    h = await startHarness({
      files: BUGGY_REPO,
      script: SCRIPT,
      model: counted.model,
      prices: PRICES,
      now: () => now,
      // No operator caps: the repository's own $0.50 a month, and $0.50 reserved per job.
      state: { config: 'verify: bash test.sh\nmax_cost_usd: 0.5\ncaps:\n  monthly_usd: 0.5\n  on_reached: refuse\n' },
    });
    await h.send('issues', issue(h, 7));
    await h.settle();
    // One reply fits a $0.50 budget ($0.27 + $0.416 does not): no PR, $0.27 spent this month.
    expect(await h.queue.spent(REPO_KEY, Date.UTC(2026, 11, 1))).toBeCloseTo(0.27, 10);
    await h.send('issues', issue(h, 8));
    await h.settle();
    expect(counted.requests()).toBe(1);
    const [job] = await h.queue.listBySubject(`${REPO_KEY}#8`);
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    const status = statusOn(8);
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain(
      "greenfix did not run: the repository's monthly cap of $0.50 has no room for this job (it resets at 2027-01-01 00:00 UTC): $0.27 spent this month, and this job reserves $0.50 (`caps.on_reached: refuse`).",
    );
  }, 120_000);
});

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import { NODE_FIX, NODE_REPO } from '../support/node-repo.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { pullRequestClosed } from './pull-request-payloads.js';

// Each reply: 120,000 prompt tokens (40,000 cached) and 2,000 completion tokens at $2.50 / $1.25 / $10
// per million = $0.20 + $0.05 + $0.02 = $0.27; three replies make the PR: $0.81.
const usage = { prompt: 120_000, completion: 2_000, cached: 40_000 };
const withUsage = (t: ScriptTurn): ScriptTurn => ({ ...t, usage });
const SCRIPT = [turn(NODE_FIX), turn(['run_tests', {}]), turn(['finish', { summary: 'sum() subtracted; it adds now.' }])].map(withUsage);
const PRICES = { scripted: { input: 2.5, cachedInput: 1.25, output: 10 } };

/** The value of one sample line of the exposition, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('cost per merged PR (no repository config)', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  const metrics = async () => (await fetch(`${h.app.url}/metrics`)).text();
  const repo = () => `repo="${h.state.owner}/${h.state.repo}"`;

  it.each(['sqlite', 'redis'] as const)('%s: label → PR, then its merge → /metrics has the exact cost per merged PR; a redelivery changes nothing', async (kind) => {
    h = await startHarness({ store: kind, files: NODE_REPO, script: SCRIPT, prices: PRICES });
    expect(h.state.config).toBeNull();
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    const pr = h.state.pulls[0]!;
    const before = await metrics();
    expect(sample(before, `greenfix_pull_requests_opened_total{${repo()}}`)).toBe(1);
    expect(sample(before, `greenfix_pull_requests_merged_total{${repo()}}`)).toBe(0);
    expect(sample(before, `greenfix_cost_per_merged_pr_usd{${repo()}}`)).toBeUndefined();

    // Someone merges greenfix's PR (GitHub says so with pull_request.closed, merged: true).
    pr.state = 'closed';
    const merged = pullRequestClosed(h, pr.number, pr.head);
    const t0 = performance.now();
    const answer = await h.send('pull_request', merged, 'merge-delivery');
    const ackMs = performance.now() - t0;
    expect(answer.status).toBe(200);
    process.stdout.write(`${kind}: merged webhook answered in ${ackMs.toFixed(1)} ms\n`);
    const after = await metrics();
    expect(sample(after, `greenfix_pull_requests_merged_total{${repo()}}`)).toBe(1);
    expect(sample(after, `greenfix_cost_per_merged_pr_usd{${repo()}}`)!.toFixed(2)).toBe('0.81');
    expect(sample(after, `greenfix_recorded_spend_usd_total{${repo()}}`)!.toFixed(2)).toBe('0.81');

    // GitHub redelivers it (same delivery id), and once more under a new id: counted once.
    expect((await h.send('pull_request', merged, 'merge-delivery')).status).toBe(200);
    expect((await h.send('pull_request', merged)).status).toBe(200);
    // A human's PR merged in the same repository is not greenfix's: not counted.
    expect((await h.send('pull_request', pullRequestClosed(h, 4242, 'feature/x'))).status).toBe(200);
    const again = await metrics();
    expect(sample(again, `greenfix_pull_requests_merged_total{${repo()}}`)).toBe(1);
    expect(sample(again, `greenfix_pull_requests_opened_total{${repo()}}`)).toBe(1);
    expect(sample(again, `greenfix_cost_per_merged_pr_usd{${repo()}}`)!.toFixed(2)).toBe('0.81');
    expect(sample(again, 'greenfix_pull_request_stats_errors_total')).toBe(0);
    // The store has it, with the merge time GitHub gave.
    const stats = await h.queue.stats(Date.parse('2026-12-01T10:00:00Z'));
    expect(stats.repos).toEqual([expect.objectContaining({ repo: `${h.state.owner}/${h.state.repo}`, merged: 1 })]);
  }, 120_000);

  it('a PR closed without merging counts as opened, not merged', async () => {
    h = await startHarness({ files: NODE_REPO, script: SCRIPT, prices: PRICES });
    await h.send('issues', labeled(h));
    await h.settle();
    const pr = h.state.pulls[0]!;
    expect((await h.send('pull_request', pullRequestClosed(h, pr.number, pr.head, false))).status).toBe(200);
    const text = await metrics();
    expect(sample(text, `greenfix_pull_requests_opened_total{${repo()}}`)).toBe(1);
    expect(sample(text, `greenfix_pull_requests_merged_total{${repo()}}`)).toBe(0);
    expect(sample(text, `greenfix_cost_per_merged_pr_usd{${repo()}}`)).toBeUndefined();
  });
});

import { createMetrics } from '../../src/app/metrics.js';
import type { QueueStats } from '../../src/queue/types.js';

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const STATS: QueueStats = {
  repos: [
    { repoKey: '1', repo: 'octo/one', spendUsd: 1.5, opened: 3, merged: 2, costPerMergedPrUsd: 0.75 },
    { repoKey: '2', repo: null, spendUsd: 0.2, opened: 0, merged: 0, costPerMergedPrUsd: null },
  ],
  total: { spendUsd: 1.7, opened: 3, merged: 2, costPerMergedPrUsd: 0.85 },
};

describe('pull request metrics', () => {
  it('are read from the store at every scrape, one read per scrape', async () => {
    const metrics = createMetrics({ processMetrics: false });
    let reads = 0;
    let stats = STATS;
    metrics.setPullRequestStats(async () => (reads++, stats));
    const text = await metrics.render();
    expect(reads).toBe(1);
    expect(sample(text, 'greenfix_pull_requests_opened_total{repo="octo/one"}')).toBe(3);
    expect(sample(text, 'greenfix_pull_requests_merged_total{repo="octo/one"}')).toBe(2);
    expect(sample(text, 'greenfix_cost_per_merged_pr_usd{repo="octo/one"}')).toBe(0.75);
    expect(sample(text, 'greenfix_recorded_spend_usd_total{repo="octo/one"}')).toBe(1.5);
    // A repository no record names any more is labelled by its id; no ratio without a merged PR.
    expect(sample(text, 'greenfix_recorded_spend_usd_total{repo="id:2"}')).toBe(0.2);
    expect(text).not.toContain('greenfix_cost_per_merged_pr_usd{repo="id:2"}');
    // The next scrape shows the store as it is then, not a sum with the last one.
    stats = { ...STATS, repos: [{ ...STATS.repos[0]!, merged: 3, costPerMergedPrUsd: 0.5 }] };
    const next = await metrics.render();
    expect(reads).toBe(2);
    expect(sample(next, 'greenfix_pull_requests_merged_total{repo="octo/one"}')).toBe(3);
    expect(sample(next, 'greenfix_cost_per_merged_pr_usd{repo="octo/one"}')).toBe(0.5);
    expect(next).not.toContain('repo="id:2"');
  });

  it('a store that cannot answer: no stale figures, the failure counted, the other metrics still there', async () => {
    const metrics = createMetrics({ processMetrics: false });
    let fail = false;
    metrics.setPullRequestStats(async () => {
      if (fail) throw new Error('database is locked');
      return STATS;
    });
    metrics.webhook('pull_request', 'cancelled', 0.01);
    expect(sample(await metrics.render(), 'greenfix_pull_requests_opened_total{repo="octo/one"}')).toBe(3);
    fail = true;
    const text = await metrics.render();
    expect(text).not.toContain('greenfix_pull_requests_opened_total{');
    expect(text).not.toContain('greenfix_cost_per_merged_pr_usd{');
    expect(sample(text, 'greenfix_pull_request_stats_errors_total')).toBe(1);
    expect(sample(text, 'greenfix_webhooks_total{event="pull_request",result="cancelled"}')).toBe(1);
  });
});

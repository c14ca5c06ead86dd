import { Counter, Gauge, type Registry } from 'prom-client';
import type { QueueStats } from '../queue/types.js';

export interface PullRequestMetrics {
  setSource(stats: () => Promise<QueueStats>): void;
}

/**
 * Recorded spend, PRs opened and merged and the cost per merged PR, per repository, read from the
 * queue's store at scrape time (one `stats()` per scrape): they survive restarts and agree across
 * processes. The total ratio is `sum(spend) / sum(merged)` in PromQL (a ratio of sums, not a sum of ratios).
 */
export function pullRequestMetrics(registers: Registry[]): PullRequestMetrics {
  let source: (() => Promise<QueueStats>) | null = null;
  // The first metric reads the stats; the others (registered after it) wait for that read.
  let reading: Promise<void> = Promise.resolve();
  const spend = new Counter({
    name: 'greenfix_recorded_spend_usd_total',
    help: 'Model spend recorded in the queue store (every job and outcome, all processes, since the store began), by repository.',
    labelNames: ['repo'] as const,
    registers,
    collect() {
      reading = read();
      return reading;
    },
  });
  const opened = new Counter({
    name: 'greenfix_pull_requests_opened_total',
    help: 'Pull requests greenfix opened, by repository (from the queue store).',
    labelNames: ['repo'] as const,
    registers,
    collect: () => reading,
  });
  const merged = new Counter({
    name: 'greenfix_pull_requests_merged_total',
    help: 'Pull requests greenfix opened that were merged, by repository (from the queue store).',
    labelNames: ['repo'] as const,
    registers,
    collect: () => reading,
  });
  const perMerged = new Gauge({
    name: 'greenfix_cost_per_merged_pr_usd',
    help: "A repository's recorded model spend (every job, failures included) divided by its merged PRs; absent while none is merged or nothing priced was spent.",
    labelNames: ['repo'] as const,
    registers,
    collect: () => reading,
  });
  const errors = new Counter({
    name: 'greenfix_pull_request_stats_errors_total',
    help: 'Scrapes where the queue store could not give the pull request figures.',
    registers,
    collect: () => reading,
  });
  const all = [spend, opened, merged, perMerged];
  async function read(): Promise<void> {
    if (!source) return;
    try {
      const stats = await source();
      for (const metric of all) metric.reset();
      for (const r of stats.repos) {
        const repo = r.repo ?? `id:${r.repoKey}`;
        spend.inc({ repo }, r.spendUsd);
        opened.inc({ repo }, r.opened);
        merged.inc({ repo }, r.merged);
        if (r.costPerMergedPrUsd !== null) perMerged.set({ repo }, r.costPerMergedPrUsd);
      }
    } catch {
      // Stale figures would look current: drop them, count the failure.
      for (const metric of all) metric.reset();
      errors.inc();
    }
  }
  return {
    setSource(stats) {
      source = stats;
    },
  };
}

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { QueueStats } from '../queue/types.js';
import type { JobKind } from '../triggers/types.js';
import { pullRequestMetrics } from './pull-request-metrics.js';

/** What the webhook handler did with one delivery. */
export type WebhookResult = 'enqueued' | 'duplicate' | 'ignored' | 'refused' | 'cancelled' | 'error';

/** Token usage of one job, split as the model endpoint reports it. */
export interface TokenUsage {
  prompt: number;
  completion: number;
}

/** Jobs per state, read at scrape time (`JobQueue.counts()`). */
export type JobCounts = () => Promise<Record<string, number>>;

/** USD left under each configured spend cap in its current window, read at scrape time. */
export type BudgetsRemaining = () => Promise<Array<{ scope: string; window: string; key: string; remainingUsd: number }>>;

/**
 * greenfix's Prometheus metrics behind typed methods, so callers never touch prom-client and
 * label values stay a small fixed set. Each call makes its own `Registry` (never prom-client's
 * global one): two apps in one process (tests) do not share or clash over counters.
 */
export interface Metrics {
  /** One webhook delivery answered, with the time from receipt to the answer. */
  webhook(event: string, result: WebhookResult, seconds: number): void;
  /** One job ended. `outcome` is a short fixed word (succeeded, failed, cancelled, …). */
  jobFinished(kind: JobKind, outcome: string, seconds: number, tokens: TokenUsage, steps: number, cost?: { repo: string; usd: number | null }): void;
  /** One dependency-cache lookup (hit/miss) or store, with the bytes restored or stored. */
  depCache(event: 'hit' | 'miss' | 'stored', bytes: number): void;
  /** Where `greenfix_jobs{state}` comes from; asked at every scrape. */
  setJobCounts(counts: JobCounts): void;
  /** Where the pull request metrics (opened, merged, cost per merged PR) come from (`JobQueue.stats`); asked at every scrape. */
  setPullRequestStats(stats: () => Promise<QueueStats>): void;
  /** Where `greenfix_budget_remaining_usd{scope,window,key}` comes from; asked at every scrape. */
  setBudgets(budgets: BudgetsRemaining): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  /** The Content-Type that goes with `render()`. */
  readonly contentType: string;
}

export interface MetricsOptions {
  /** Node process metrics (CPU, memory, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_SLOW = [10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  let jobCounts: JobCounts | null = null;
  let budgets: BudgetsRemaining | null = null;

  const webhooks = new Counter({
    name: 'greenfix_webhooks_total',
    help: 'Webhook deliveries by event and what was done with them.',
    labelNames: ['event', 'result'] as const,
    registers,
  });
  const ack = new Histogram({
    name: 'greenfix_webhook_ack_seconds',
    help: 'Time from receiving a webhook to answering it (GitHub gives up after 10 s).',
    buckets: SECONDS_FAST,
    registers,
  });
  // The gauge reads the counts; the error counter, registered after it, waits for that read so a
  // failure shows in the same scrape (prom-client collects all metrics of a scrape concurrently).
  let reading: Promise<void> = Promise.resolve();
  const jobs = new Gauge({
    name: 'greenfix_jobs',
    help: 'Jobs in the queue by state, read at scrape time.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      reading = readCounts();
      return reading;
    },
  });
  const countErrors = new Counter({
    name: 'greenfix_job_counts_errors_total',
    help: 'Scrapes where the queue could not say how many jobs are in each state.',
    registers,
    collect: () => reading,
  });
  async function readCounts(): Promise<void> {
    if (!jobCounts) return;
    try {
      const counts = await jobCounts();
      jobs.reset();
      for (const [state, n] of Object.entries(counts)) jobs.set({ state }, n);
    } catch {
      // A stale figure would look healthy: drop them, count the failure, keep the other metrics.
      jobs.reset();
      countErrors.inc();
    }
  }
  const remaining = new Gauge({
    name: 'greenfix_budget_remaining_usd',
    help: 'USD left under each configured spend cap in its current window (the cap minus the spend recorded in it), for caps jobs of this process ran under; read at scrape time.',
    labelNames: ['scope', 'window', 'key'] as const,
    registers,
    async collect() {
      if (!budgets) return;
      remaining.reset();
      try {
        for (const b of await budgets()) remaining.set({ scope: b.scope, window: b.window, key: b.key }, b.remainingUsd);
      } catch {
        // Left empty: a stale figure would read as budget that is not there.
      }
    },
  });
  const duration = new Histogram({
    name: 'greenfix_job_duration_seconds',
    help: 'Wall time of finished jobs by kind and outcome.',
    labelNames: ['kind', 'outcome'] as const,
    buckets: SECONDS_SLOW,
    registers,
  });
  const tokens = new Counter({
    name: 'greenfix_tokens_total',
    help: 'Model tokens used by finished jobs, by kind (prompt or completion).',
    labelNames: ['kind'] as const,
    registers,
  });
  const cost = new Counter({
    name: 'greenfix_cost_usd_total',
    help: 'Model cost in USD of finished jobs (failed and cancelled included), by repository, job kind and outcome; unpriced models are not counted.',
    labelNames: ['repo', 'kind', 'outcome'] as const,
    registers,
  });
  const unpriced = new Counter({
    name: 'greenfix_cost_unknown_jobs_total',
    help: 'Finished jobs whose model has no price (GREENFIX_PRICES): their cost is unknown, not zero.',
    labelNames: ['repo', 'kind'] as const,
    registers,
  });
  const steps = new Counter({
    name: 'greenfix_agent_steps_total',
    help: 'Agent steps (model turns) taken by finished jobs.',
    registers,
  });
  const cacheEvents = new Counter({
    name: 'greenfix_dep_cache_total',
    help: 'Dependency cache lookups (hit, miss) and stores of a successful install (stored).',
    labelNames: ['result'] as const,
    registers,
  });
  const cacheBytes = new Counter({
    name: 'greenfix_dep_cache_bytes_total',
    help: 'Bytes of installed dependencies restored from (hit) or written to (stored) the cache.',
    labelNames: ['result'] as const,
    registers,
  });
  const pulls = pullRequestMetrics(registers);
  for (const result of ['hit', 'miss', 'stored'] as const) cacheEvents.inc({ result }, 0);
  for (const result of ['hit', 'stored'] as const) cacheBytes.inc({ result }, 0);
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  return {
    webhook(event, result, seconds) {
      webhooks.inc({ event, result });
      ack.observe(seconds);
    },
    jobFinished(kind, outcome, seconds, used, stepCount, spent) {
      duration.observe({ kind, outcome }, seconds);
      if (spent && spent.usd !== null) cost.inc({ repo: spent.repo, kind, outcome }, spent.usd);
      else if (spent) unpriced.inc({ repo: spent.repo, kind });
      tokens.inc({ kind: 'prompt' }, used.prompt);
      tokens.inc({ kind: 'completion' }, used.completion);
      steps.inc(stepCount);
    },
    depCache(event, bytes) {
      cacheEvents.inc({ result: event });
      if (event !== 'miss') cacheBytes.inc({ result: event }, bytes);
    },
    setJobCounts(counts) {
      jobCounts = counts;
    },
    setPullRequestStats: (stats) => pulls.setSource(stats),
    setBudgets(read) {
      budgets = read;
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

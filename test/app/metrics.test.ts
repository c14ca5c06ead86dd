import { createMetrics } from '../../src/app/metrics.js';

/** The value of one sample line, e.g. `greenfix_jobs{state="queued"} 3`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('createMetrics', () => {
  it('counts webhooks by event and result and observes the acknowledgement time', async () => {
    const metrics = createMetrics({ processMetrics: false });
    metrics.webhook('issues', 'enqueued', 0.02);
    metrics.webhook('issues', 'enqueued', 0.03);
    metrics.webhook('issue_comment', 'refused', 2);
    const text = await metrics.render();
    expect(sample(text, 'greenfix_webhooks_total{event="issues",result="enqueued"}')).toBe(2);
    expect(sample(text, 'greenfix_webhooks_total{event="issue_comment",result="refused"}')).toBe(1);
    expect(sample(text, 'greenfix_webhook_ack_seconds_count')).toBe(3);
    expect(sample(text, 'greenfix_webhook_ack_seconds_bucket{le="0.05"}')).toBe(2);
    expect(sample(text, 'greenfix_webhook_ack_seconds_sum')).toBeCloseTo(2.05);
  });

  it('records finished jobs: duration by kind and outcome, tokens by kind, steps', async () => {
    const metrics = createMetrics({ processMetrics: false });
    metrics.jobFinished('issue', 'succeeded', 95, { prompt: 1000, completion: 200 }, 12);
    metrics.jobFinished('ci_fix', 'failed', 30, { prompt: 500, completion: 50 }, 3);
    const text = await metrics.render();
    expect(sample(text, 'greenfix_job_duration_seconds_count{kind="issue",outcome="succeeded"}')).toBe(1);
    expect(sample(text, 'greenfix_job_duration_seconds_bucket{le="120",kind="issue",outcome="succeeded"}')).toBe(1);
    expect(sample(text, 'greenfix_job_duration_seconds_bucket{le="60",kind="issue",outcome="succeeded"}')).toBe(0);
    expect(sample(text, 'greenfix_tokens_total{kind="prompt"}')).toBe(1500);
    expect(sample(text, 'greenfix_tokens_total{kind="completion"}')).toBe(250);
    expect(sample(text, 'greenfix_agent_steps_total')).toBe(15);
  });

  it('counts dependency-cache hits, misses and stores, and the bytes restored and stored', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const before = await metrics.render();
    expect(sample(before, 'greenfix_dep_cache_total{result="hit"}')).toBe(0);
    metrics.depCache('miss', 0);
    metrics.depCache('stored', 5000);
    metrics.depCache('hit', 5000);
    metrics.depCache('hit', 5000);
    const text = await metrics.render();
    expect(sample(text, 'greenfix_dep_cache_total{result="hit"}')).toBe(2);
    expect(sample(text, 'greenfix_dep_cache_total{result="miss"}')).toBe(1);
    expect(sample(text, 'greenfix_dep_cache_total{result="stored"}')).toBe(1);
    expect(sample(text, 'greenfix_dep_cache_bytes_total{result="hit"}')).toBe(10000);
    expect(sample(text, 'greenfix_dep_cache_bytes_total{result="stored"}')).toBe(5000);
  });

  it('asks for job counts at every scrape', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const counts = [
      { queued: 3, running: 1, succeeded: 0, failed: 0, cancelled: 0 },
      { queued: 0, running: 2, succeeded: 2, failed: 0, cancelled: 0 },
    ];
    let scrapes = 0;
    metrics.setJobCounts(async () => counts[scrapes++]!);
    const first = await metrics.render();
    expect(sample(first, 'greenfix_jobs{state="queued"}')).toBe(3);
    expect(sample(first, 'greenfix_jobs{state="cancelled"}')).toBe(0);
    const second = await metrics.render();
    expect(sample(second, 'greenfix_jobs{state="queued"}')).toBe(0);
    expect(sample(second, 'greenfix_jobs{state="succeeded"}')).toBe(2);
  });

  it('drops job counts it cannot read (no stale figures) and counts the failure', async () => {
    const metrics = createMetrics({ processMetrics: false });
    let fail = false;
    metrics.setJobCounts(async () => {
      if (fail) throw new Error('SQLITE_BUSY');
      return { queued: 4 };
    });
    expect(sample(await metrics.render(), 'greenfix_jobs{state="queued"}')).toBe(4);
    fail = true;
    const text = await metrics.render();
    expect(sample(text, 'greenfix_jobs{state="queued"}')).toBeUndefined();
    expect(sample(text, 'greenfix_job_counts_errors_total')).toBe(1);
  });

  it('reads the remaining budget per cap at every scrape, and shows none it cannot read', async () => {
    const metrics = createMetrics({ processMetrics: false });
    let fail = false;
    metrics.setBudgets(async () => {
      if (fail) throw new Error('SQLITE_BUSY');
      return [
        { scope: 'repo', window: 'day', key: 'octo/app', remainingUsd: 0.19 },
        { scope: 'installation', window: 'month', key: '42', remainingUsd: 120 },
      ];
    });
    const text = await metrics.render();
    expect(sample(text, 'greenfix_budget_remaining_usd{scope="repo",window="day",key="octo/app"}')).toBe(0.19);
    expect(sample(text, 'greenfix_budget_remaining_usd{scope="installation",window="month",key="42"}')).toBe(120);
    fail = true;
    expect(sample(await metrics.render(), 'greenfix_budget_remaining_usd{scope="repo",window="day",key="octo/app"}')).toBeUndefined();
  });

  it('keeps each instance apart (own registry), with process metrics when asked', async () => {
    const a = createMetrics();
    const b = createMetrics({ processMetrics: false });
    a.webhook('issues', 'error', 0.1);
    expect(sample(await b.render(), 'greenfix_webhooks_total{event="issues",result="error"}')).toBeUndefined();
    const text = await a.render();
    expect(sample(text, 'greenfix_webhooks_total{event="issues",result="error"}')).toBe(1);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(a.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});

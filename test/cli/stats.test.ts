import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBullmqQueue } from '../../src/queue/bullmq-queue.js';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import type { JobQueue } from '../../src/queue/types.js';
import { jobRequest } from '../queue/job-requests.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { runCli } from './helpers.js';

const LEASE = { workerId: 'w1', leaseMs: 60_000, maxRunning: 10 };

/**
 * What the app would have recorded: repository 1 (octo/repo-1) opens two PRs ($0.80 and $0.30)
 * and fails a job ($0.40), both PRs merged; repository 2 opens one PR with an unpriced model and
 * nothing merged; repository 3 spends $0.05 on a job that opened nothing.
 */
async function fill(queue: JobQueue): Promise<void> {
  const run = async (repoId: number, issue: number, spend: number, pr?: number) => {
    await queue.enqueue(jobRequest(repoId, issue), { deliveryId: `d-${repoId}-${issue}` });
    const claimed = (await queue.claim(LEASE))!;
    if (pr !== undefined) await queue.recordPullRequest({ repoKey: String(repoId), repo: `octo/repo-${repoId}`, number: pr, jobId: claimed.job.id });
    if (pr === undefined && spend > 0) await queue.fail(claimed.lease, { message: 'not verified', retryable: false, spendUsd: spend });
    else await queue.complete(claimed.lease, { pr }, spend);
  };
  await run(1, 1, 0.8, 101);
  await run(1, 2, 0.4);
  await run(1, 3, 0.3, 103);
  await run(2, 1, 0, 201);
  await run(3, 1, 0.05);
  expect(await queue.recordMerge('1', 101, Date.now())).toBe(true);
  expect(await queue.recordMerge('1', 103, Date.now())).toBe(true);
}

/** `greenfix stats` through the built CLI (dist/: `npm run build` first), as a separate process. */
describe('greenfix stats', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir('greenfix-stats-')));
  afterEach(() => cleanup(dir));

  const env = () => ({ GREENFIX_WORKDIR: join(dir, 'work') });
  async function filledSqlite(): Promise<void> {
    const queue = openSqliteQueue({ path: join(dir, 'work', 'greenfix.db') });
    await fill(queue);
    await queue.close();
  }

  it('prints spend, PRs opened and merged and cost per merged PR per repository and in total', async () => {
    await filledSqlite();
    const r = await runCli(['stats'], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('greenfix stats, all time');
    const cells = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.trim().split(/\s{2,}/);
    expect(cells('repository')).toEqual(['repository', 'spend', 'PRs opened', 'PRs merged', 'cost per merged PR']);
    expect(cells('octo/repo-1')).toEqual(['octo/repo-1', '$1.50', '2', '2', '$0.75']);
    expect(cells('octo/repo-2')).toEqual(['octo/repo-2', 'cost unknown', '1', '0', 'none merged']);
    // Named from its job: it opened no PR.
    expect(cells('octo/repo-3')).toEqual(['octo/repo-3', '$0.05', '0', '0', 'none merged']);
    expect(cells('total')).toEqual(['total', '$1.55', '3', '2', '$0.78']);
    expect(r.stdout).toContain('cost unknown: no priced model usage was recorded');
    // Figures are right-aligned under their headings.
    expect(lines.find((l) => l.startsWith('octo/repo-1'))!.length).toBe(lines.find((l) => l.startsWith('repository'))!.length);
  });

  it('--json for machines, and --since for a window', async () => {
    await filledSqlite();
    const r = await runCli(['stats', '--json'], env());
    expect(r.code).toBe(0);
    const json = r.json as { since: null; repos: Array<Record<string, unknown>>; total: Record<string, number | null> };
    expect(json.since).toBeNull();
    expect(json.repos.map((x) => x['repo'])).toEqual(['octo/repo-1', 'octo/repo-2', 'octo/repo-3']);
    expect(json.repos[0]).toMatchObject({ repoKey: '1', opened: 2, merged: 2 });
    expect(json.repos[0]!['costPerMergedPrUsd']).toBeCloseTo(0.75, 10);
    expect(json.repos[1]).toMatchObject({ spendUsd: 0, costPerMergedPrUsd: null });
    expect(json.total['spendUsd']).toBeCloseTo(1.55, 10);
    expect(json.total['costPerMergedPrUsd']).toBeCloseTo(0.775, 10);
    const lastMonth = await runCli(['stats', '--json', '--since', '30d'], env());
    expect((lastMonth.json as { total: unknown }).total).toEqual(json.total);
    const future = await runCli(['stats', '--json', '--since', '2100-01-01'], env());
    expect(future.json).toEqual({ since: Date.parse('2100-01-01'), repos: [], total: { spendUsd: 0, opened: 0, merged: 0, costPerMergedPrUsd: null } });
  });

  it('bad input: a usage error (exit 2) that says what is wrong, and no empty queue made', async () => {
    const missing = await runCli(['stats'], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no queue database at ${join(dir, 'work', 'greenfix.db')}`);
    expect(existsSync(join(dir, 'work'))).toBe(false);
    await filledSqlite();
    const since = await runCli(['stats', '--since', 'last tuesday'], env());
    expect(since.code).toBe(2);
    expect(since.stderr).toContain("--since takes an age (30d, 12h, 90m) or a date (2026-11-01), got 'last tuesday'");
    const flag = await runCli(['stats', '--csv'], env());
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('Usage: greenfix stats');
    const help = await runCli(['stats', '--help'], env());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: greenfix stats [--since AGE|DATE] [--json]');
    expect((await runCli(['--help'], env())).stdout).toContain('greenfix stats [--since 30d] [--json]');
    const unreachable = await runCli(['stats'], { ...env(), REDIS_URL: 'redis://127.0.0.1:1' });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('cannot reach the Redis queue at redis://127.0.0.1:1');
    const redis = await runCli(['stats'], { ...env(), REDIS_URL: 'http://localhost:6379' });
    expect(redis.code).toBe(2);
    expect(redis.stderr).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
  });

  it('a damaged database file: says so, exit 2', async () => {
    mkdirSync(join(dir, 'work'));
    writeFileSync(join(dir, 'work', 'greenfix.db'), 'not a database, just text '.repeat(200));
    const r = await runCli(['stats'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the file is not a SQLite database or is damaged');
  });

  describe('on Redis', () => {
    let server: RedisServer;
    beforeAll(async () => (server = await startRedisServer()));
    afterAll(async () => server?.stop());

    it('reads the BullMQ queue named by REDIS_URL, with the same figures', async () => {
      const queue = await openBullmqQueue({ url: server.url });
      await fill(queue);
      await queue.close();
      const r = await runCli(['stats', '--json'], { ...env(), REDIS_URL: server.url });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const json = r.json as { repos: Array<Record<string, unknown>>; total: Record<string, number> };
      expect(json.repos.map((x) => [x['repo'], x['opened'], x['merged']])).toEqual([
        ['octo/repo-1', 2, 2],
        ['octo/repo-2', 1, 0],
        ['octo/repo-3', 0, 0],
      ]);
      expect(json.total['spendUsd']).toBeCloseTo(1.55, 10);
      expect(json.total['costPerMergedPrUsd']).toBeCloseTo(0.775, 10);
    });
  });
});

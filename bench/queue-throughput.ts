import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openBullmqQueue } from '../src/queue/bullmq-queue.js';
import { openSqliteQueue } from '../src/queue/sqlite-queue.js';
import type { JobQueue } from '../src/queue/types.js';
import type { JobRequest } from '../src/triggers/types.js';
import { startRedisServer } from '../test/support/redis-server.js';

export interface QueuePhaseRates {
  enqueuePerSec: number;
  claimCompletePerSec: number;
}

export interface QueueThroughputBench {
  jobs: number;
  /** The SQLite file queue (WAL, synchronous=FULL), as greenfix runs it. */
  file: QueuePhaseRates;
  /** Baseline: the same code on `:memory:`: what the disk and WAL cost. */
  memory: QueuePhaseRates;
  /** The BullMQ queue (REDIS_URL) on a loopback redis-server (AOF on). */
  redis: QueuePhaseRates;
  /** The burst: deliveries sent, distinct among them, jobs created, jobs found afterwards. */
  burst: { deliveries: number; distinct: number; created: number; stored: number };
}

const REPOS = 50;

export interface QueueThroughputOptions {
  jobs?: number;
  burst?: number;
  /** A running Redis to measure on (a fresh key prefix is used); default: a redis-server of its own. */
  redisUrl?: string;
}

/** Enqueue `jobs` jobs, then claim and complete them all, on a file, on `:memory:` and on Redis. */
export async function benchQueueThroughput(options: QueueThroughputOptions = {}): Promise<QueueThroughputBench> {
  const { jobs = 5_000, burst = 1_000 } = options;
  const dir = mkdtempSync(join(tmpdir(), 'gf-bench-queue-'));
  const ownRedis = options.redisUrl === undefined ? await startRedisServer() : null;
  try {
    const file = await phases(openSqliteQueue({ path: join(dir, 'throughput.db') }), jobs);
    const memory = await phases(openSqliteQueue({ path: ':memory:' }), jobs);
    const redisUrl = options.redisUrl ?? ownRedis!.url;
    const redis = await phases(await openBullmqQueue({ url: redisUrl, prefix: `{gf-bench-queue-${randomUUID().slice(0, 8)}}` }), jobs);
    return { jobs, file, memory, redis, burst: await duplicateBurst(openSqliteQueue({ path: join(dir, 'burst.db') }), burst) };
  } finally {
    await ownRedis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function phases(queue: JobQueue, jobs: number): Promise<QueuePhaseRates> {
  try {
    const enqueueMs = await timed(async () => {
      for (let i = 0; i < jobs; i++) await queue.enqueue(request(i), { deliveryId: `delivery-${i}` });
    });
    let done = 0;
    const claimMs = await timed(async () => {
      const options = { workerId: 'bench', leaseMs: 60_000, maxRunning: REPOS };
      for (let c = await queue.claim(options); c; c = await queue.claim(options), done++) await queue.complete(c.lease, { ok: true });
    });
    if (done !== jobs) throw new Error(`queue bench: ${done} of ${jobs} jobs claimed`);
    return { enqueuePerSec: (jobs * 1_000) / enqueueMs, claimCompletePerSec: (jobs * 1_000) / claimMs };
  } finally {
    await queue.close();
  }
}

/** Every tenth delivery repeats an earlier one, all sent at once, as a webhook redelivery storm would. */
async function duplicateBurst(queue: JobQueue, deliveries: number): Promise<QueueThroughputBench['burst']> {
  try {
    const ids = Array.from({ length: deliveries }, (_, i) => (i % 10 === 9 ? `burst-${i - 9}` : `burst-${i}`));
    const results = await Promise.all(ids.map((id, i) => queue.enqueue(request(i), { deliveryId: id })));
    const counts = await queue.counts();
    const stored = Object.values(counts).reduce((a, b) => a + b, 0);
    return { deliveries, distinct: new Set(ids).size, created: results.filter((r) => r.created).length, stored };
  } finally {
    await queue.close();
  }
}

function request(i: number): JobRequest {
  const id = i % REPOS;
  const repo = { id, owner: 'bench', name: `repo-${id}`, cloneUrl: `https://example.invalid/bench/repo-${id}.git`, defaultBranch: 'main' };
  return { kind: 'issue', installationId: 1, repo, number: i, target: 'issue', title: `Issue ${i}`, body: 'x'.repeat(200), sender: 'bench' };
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Rows in bench/report.ts's table shape: [benchmark, measured, baseline, ratio, goal]. */
export function queueThroughputRows(r: QueueThroughputBench): Array<[string, string, string, string, string]> {
  const rate = (v: number) => `${Math.round(v).toLocaleString('en-US')} jobs/s`;
  const b = r.burst;
  return [
    [`queue enqueue, ${r.jobs} jobs (SQLite file)`, rate(r.file.enqueuePerSec), `${rate(r.memory.enqueuePerSec)} :memory:`, (r.file.enqueuePerSec / r.memory.enqueuePerSec).toFixed(2), ''],
    [`queue claim+complete, ${r.jobs} jobs`, rate(r.file.claimCompletePerSec), `${rate(r.memory.claimCompletePerSec)} :memory:`, (r.file.claimCompletePerSec / r.memory.claimCompletePerSec).toFixed(2), ''],
    [`delivery burst, ${b.deliveries} with 10% duplicates`, `${b.created} jobs (${b.stored} stored)`, `${b.distinct} distinct deliveries`, (b.created / b.distinct).toFixed(3), `= 1${b.created === b.distinct && b.stored === b.distinct ? ' (met)' : ' (NOT met)'}`],
  ];
}

/** Redis next to the SQLite file (the default queue), same jobs, same run: ratio Redis / SQLite. */
export function queueRedisRows(r: QueueThroughputBench): Array<[string, string, string, string, string]> {
  const rate = (v: number) => `${Math.round(v).toLocaleString('en-US')} jobs/s`;
  return [
    [`queue enqueue, ${r.jobs} jobs (BullMQ on Redis)`, rate(r.redis.enqueuePerSec), `${rate(r.file.enqueuePerSec)} SQLite file`, (r.redis.enqueuePerSec / r.file.enqueuePerSec).toFixed(2), ''],
    [`queue claim+complete, ${r.jobs} jobs (BullMQ on Redis)`, rate(r.redis.claimCompletePerSec), `${rate(r.file.claimCompletePerSec)} SQLite file`, (r.redis.claimCompletePerSec / r.file.claimCompletePerSec).toFixed(2), ''],
  ];
}

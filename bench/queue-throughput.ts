import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSqliteQueue } from '../src/queue/sqlite-queue.js';
import type { JobQueue } from '../src/queue/types.js';
import type { JobRequest } from '../src/triggers/types.js';

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
  /** The burst: deliveries sent, distinct among them, jobs created, jobs found afterwards. */
  burst: { deliveries: number; distinct: number; created: number; stored: number };
}

const REPOS = 50;

/** Enqueue `jobs` jobs, then claim and complete them all, on a file and on `:memory:`. */
export async function benchQueueThroughput(options: { jobs?: number; burst?: number } = {}): Promise<QueueThroughputBench> {
  const { jobs = 5_000, burst = 1_000 } = options;
  const dir = mkdtempSync(join(tmpdir(), 'gf-bench-queue-'));
  try {
    const file = await phases(openSqliteQueue({ path: join(dir, 'throughput.db') }), jobs);
    const memory = await phases(openSqliteQueue({ path: ':memory:' }), jobs);
    return { jobs, file, memory, burst: await duplicateBurst(openSqliteQueue({ path: join(dir, 'burst.db') }), burst) };
  } finally {
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

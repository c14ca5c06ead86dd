import { performance } from 'node:perf_hooks';
import { ScriptedModel } from '../src/model/scripted-model.js';
import type { ChatModel } from '../src/model/types.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { subjectKey } from '../src/triggers/types.js';
import { startAppWorld, startBenchApp, type AppWorld, type BenchApp } from './app-fixture.js';
import { until } from './until.js';
import { deliverConcurrently, deliverSequentially, labeled, latencyStats, type Delivery, type LatencyStats } from './deliveries.js';

export interface WebhookAckBench {
  /** A (baseline): deliveries the app ignores (another label), idle app: HTTP + signature + config read. */
  idle: LatencyStats;
  /** Control: deliveries that enqueue a job, receiver only (no job running). */
  enqueueIdle: LatencyStats;
  /** B: deliveries that enqueue a job while both workers run a job. */
  busy: LatencyStats;
  /** Fewest jobs seen running during B (2 = the workers were busy throughout). */
  busyRunningMin: number;
  /** Jobs that ended during B (0 = the same two jobs ran throughout, no churn of workspaces). */
  busyJobsEnded: number;
  /** Enqueueing deliveries with Probot's default Octokit (writes spaced 1 s apart per installation). */
  throttled: LatencyStats;
  burst: BurstResult;
}

export interface BurstResult {
  deliveries: number;
  distinct: number;
  connections: number;
  answered200: number;
  /** Jobs in the queue afterwards; distinct deliveries without a job; subjects with more than one. */
  jobs: number;
  lost: number;
  doubled: number;
  wallMs: number;
  latency: LatencyStats;
}

export interface WebhookAckOptions {
  sandbox: Sandbox;
  /** Sequential deliveries per latency phase. */
  deliveries?: number;
  burst?: number;
  connections?: number;
  throttledDeliveries?: number;
}

/** Each job's model: `sleep 2` in the sandbox, over and over (varied, or stuck detection ends the run), so the workers stay busy. */
const SLEEPER = new ScriptedModel(Array.from({ length: 60 }, (_, i) => ({ tool_calls: [{ name: 'run', arguments: { command: `sleep 2; echo step ${i}` } }] })));
const WARMUP = 20;

/** Issue 3's benchmark: webhook acknowledgement latency while jobs run, and a duplicate-laden burst. */
export async function benchWebhookAck(o: WebhookAckOptions): Promise<WebhookAckBench> {
  const { deliveries = 150, burst = 1_000, connections = 100, throttledDeliveries = 6 } = o;
  const world = await startAppWorld();
  try {
    const { idle, busy, busyRunningMin, busyJobsEnded } = await idleThenBusy(world, o.sandbox, deliveries);
    const receiver = await startBenchApp(world, 'receiver', { role: 'receiver', model: SLEEPER, sandbox: o.sandbox, throttled: false });
    let enqueueIdle: LatencyStats;
    let burstResult: BurstResult;
    try {
      enqueueIdle = latencyStats(await deliverSequentially(receiver.webhookUrl, enqueueing(world, 'recv', deliveries)));
      burstResult = await duplicateBurst(world, receiver, burst, connections);
    } finally {
      await receiver.stop();
    }
    const throttledApp = await startBenchApp(world, 'throttled', { role: 'receiver', model: SLEEPER, sandbox: o.sandbox, throttled: true });
    try {
      const throttled = latencyStats(await deliverSequentially(throttledApp.webhookUrl, enqueueing(world, 'thr', throttledDeliveries)));
      return { idle, enqueueIdle, busy, busyRunningMin, busyJobsEnded, throttled, burst: burstResult };
    } finally {
      await throttledApp.stop();
    }
  } finally {
    await world.close();
  }
}

/** Phases A and B on one app (role all, concurrency 2): ignored deliveries idle, then enqueueing ones while two jobs run. */
async function idleThenBusy(world: AppWorld, sandbox: Sandbox, count: number) {
  const calls = { n: 0 };
  const model: ChatModel = { name: 'sleeper', complete: (request) => ((calls.n += 1), SLEEPER.complete(request)) };
  const b = await startBenchApp(world, 'all', { role: 'all', model, sandbox, throttled: false });
  try {
    const ignored = (tag: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${tag}-${i}`, payload: labeled(world.repositories[i % 2]!, 1 + i, 'documentation') }));
    await deliverSequentially(b.webhookUrl, ignored('warm', WARMUP));
    const idle = latencyStats(await deliverSequentially(b.webhookUrl, ignored('idle', count)));
    if (idle.failed > 0) throw new Error(`webhook bench: ${idle.failed} ignored deliveries not answered 200`);
    await deliverSequentially(b.webhookUrl, world.repositories.map((repo, i) => ({ id: `start-${i}`, payload: labeled(repo, 1, 'agent-fix') })));
    await until(() => calls.n >= 2 && b.app.pool?.running() === 2, 60_000, 'two jobs in their agent loop');
    let busyRunningMin = 2;
    const watch = setInterval(() => (busyRunningMin = Math.min(busyRunningMin, b.app.pool?.running() ?? 0)), 10);
    const busy = latencyStats(await deliverSequentially(b.webhookUrl, enqueueing(world, 'busy', count)));
    clearInterval(watch);
    busyRunningMin = Math.min(busyRunningMin, b.app.pool?.running() ?? 0);
    const counts = await b.queue.counts();
    return { idle, busy, busyRunningMin, busyJobsEnded: counts.succeeded + counts.failed + counts.cancelled };
  } finally {
    await b.stop();
  }
}

/** Deliveries that each enqueue a job: `agent-fix` on a distinct issue, alternating repositories. */
function enqueueing(world: AppWorld, tag: string, count: number, firstIssue = 1_000): Delivery[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${tag}-${i}`, payload: labeled(world.repositories[i % 2]!, firstIssue + i, 'agent-fix') }));
}

/** Every tenth delivery repeats an earlier one (same id, same body, as GitHub's redelivery), all at once. */
async function duplicateBurst(world: AppWorld, b: BenchApp, count: number, connections: number): Promise<BurstResult> {
  const originals = enqueueing(world, 'burst', count, 100_000);
  const sent = originals.map((d, i) => (i % 10 === 9 ? originals[i - 9]! : d));
  const distinct = sent.filter((d, i) => sent.indexOf(d) === i);
  const before = total(await b.queue.counts());
  const started = performance.now();
  const answers = await deliverConcurrently(b.webhookUrl, sent, connections);
  const wallMs = performance.now() - started;
  const jobs = total(await b.queue.counts()) - before;
  let lost = 0;
  let doubled = 0;
  for (const d of distinct) {
    const found = await b.queue.listBySubject(subjectKey(d.payload.repository as { id: number }, (d.payload.issue as { number: number }).number));
    if (found.length === 0) lost += 1;
    if (found.length > 1) doubled += 1;
  }
  const answered200 = answers.filter((a) => a.status === 200).length;
  return { deliveries: count, distinct: distinct.length, connections, answered200, jobs, lost, doubled, wallMs, latency: latencyStats(answers) };
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

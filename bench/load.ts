import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ScriptedModel } from '../src/model/scripted-model.js';
import { openBullmqQueue } from '../src/queue/bullmq-queue.js';
import { openSqliteQueue } from '../src/queue/sqlite-queue.js';
import type { JobQueue } from '../src/queue/types.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { subjectKey } from '../src/triggers/types.js';
import { startAppWorld, startBenchApp, type AppWorld } from './app-fixture.js';
import { deliverConcurrently, labeled, latencyStats, type Delivery, type LatencyStats } from './deliveries.js';
import { sendPaced } from './paced-sender.js';
import { sendPacedOnThread } from './paced-sender-thread.js';

export interface LoadVariant {
  queue: 'SQLite' | 'Redis';
  sent: number;
  distinct: number;
  /** First to last send, and the largest delay of a send against its slot (the sender kept pace if small). */
  spanMs: number;
  lagMaxMs: number;
  /** First send to last answer: sent / drain is the rate the receiver actually served. */
  drainMs: number;
  /** Send to answer, answered (200/202) deliveries. */
  ack: LatencyStats;
  /** Answers by HTTP status ('0': no answer). */
  statuses: Record<string, number>;
  /** Jobs in the queue afterwards; distinct deliveries without a job / with more than one; jobs not of their delivery. */
  jobs: number;
  lost: number;
  doubled: number;
  mismatched: number;
}

export interface LoadBench {
  perSecond: number;
  seconds: number;
  /** Probot's throttling plugin is off (it would space the 👀 reactions a second apart per installation). */
  throttling: 'off';
  sqlite: LoadVariant;
  redis: LoadVariant;
}

export interface LoadOptions {
  sandbox: Sandbox;
  /** A running Redis; the bench uses a fresh key prefix on it. */
  redisUrl: string;
  perSecond?: number;
  seconds?: number;
  /**
   * true (default): the sender and the fake GitHub on worker threads, so the receiver's event loop
   * is the receiver's alone; false: all on this one (tests: no compiled worker files needed).
   */
  threads?: boolean;
}

/** Receivers have no workers: the model is never asked. */
const UNUSED_MODEL = new ScriptedModel([]);
const WARMUP = 300;

/**
 * Issue 4's load test: a receiver-only app on loopback, open-loop signed `issues.labeled`
 * deliveries at `perSecond` for `seconds`, 10 % of them redeliveries of an earlier id; once with
 * the SQLite queue, once with Redis. Afterwards every distinct delivery must have exactly one job.
 */
export async function benchLoad(o: LoadOptions): Promise<LoadBench> {
  const { perSecond = 200, seconds = 10 } = o;
  const count = Math.round(perSecond * seconds);
  const world = await startAppWorld({ githubOnThread: o.threads !== false });
  try {
    // Discarded: whichever variant runs first pays the process's warm-up (JIT, sockets, GC sizing);
    // measured in both orders, the first one's p50 was 10-30x worse. Three paced seconds first.
    await variant(world, o, 'SQLite', openSqliteQueue({ path: join(world.dir, 'warm-up.db') }), Math.min(count, perSecond * 3), perSecond);
    const sqlite = await variant(world, o, 'SQLite', openSqliteQueue({ path: join(world.dir, 'load.db') }), count, perSecond);
    const redisQueue = await openBullmqQueue({ url: o.redisUrl, prefix: `{gf-bench-load-${randomUUID().slice(0, 8)}}` });
    const redis = await variant(world, o, 'Redis', redisQueue, count, perSecond);
    return { perSecond, seconds, throttling: 'off', sqlite, redis };
  } finally {
    await world.close();
  }
}

async function variant(world: AppWorld, o: LoadOptions, name: LoadVariant['queue'], queue: JobQueue, count: number, perSecond: number): Promise<LoadVariant> {
  const app = await startBenchApp(world, `load-${name}`, { role: 'receiver', model: UNUSED_MODEL, sandbox: o.sandbox, throttled: false, queue }).catch(async (error: unknown) => {
    await queue.close();
    throw error;
  });
  try {
    // Warm the enqueueing path itself (JIT, token, connections), so the variant that runs first pays no more for it.
    const warm = Array.from({ length: WARMUP }, (_, i) => ({ id: `warm-${name}-${i}`, payload: labeled(world.repositories[i % 2]!, 1 + i, 'agent-fix') }));
    await deliverConcurrently(app.webhookUrl, warm, 10);
    const before = total(await queue.counts());
    const sent = schedule(world, name, count);
    const run = o.threads === false ? await sendPaced(app.webhookUrl, sent, perSecond) : await sendPacedOnThread(app.webhookUrl, sent, perSecond);
    const distinct = [...new Set(sent)];
    const jobs = total(await queue.counts()) - before;
    const found = { lost: 0, doubled: 0, mismatched: 0 };
    for (const d of distinct) {
      const list = await queue.listBySubject(subjectKey(d.payload.repository as { id: number }, (d.payload.issue as { number: number }).number));
      if (list.length === 0) found.lost += 1;
      if (list.length > 1) found.doubled += 1;
      if (list.some((job) => job.deliveryId !== d.id)) found.mismatched += 1;
    }
    const statuses: Record<string, number> = {};
    for (const a of run.answers) statuses[String(a.status)] = (statuses[String(a.status)] ?? 0) + 1;
    const lagMaxMs = Math.max(0, ...run.answers.map((a) => a.lagMs));
    return { queue: name, sent: count, distinct: distinct.length, spanMs: run.spanMs, lagMaxMs, drainMs: run.drainMs, ack: latencyStats(run.answers), statuses, jobs, ...found };
  } finally {
    await app.stop();
  }
}

/**
 * `agent-fix` on a distinct issue per delivery (no supersede between them), alternating the two
 * repositories. Every tenth is a redelivery (same id, same body): half of the previous delivery,
 * likely still in flight, half of one sent seconds earlier.
 */
function schedule(world: AppWorld, tag: string, count: number): Delivery[] {
  const sent: Delivery[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 !== 9) sent.push({ id: `load-${tag}-${i}`, payload: labeled(world.repositories[i % 2]!, 10_000 + i, 'agent-fix') });
    else sent.push(sent[i % 20 === 9 ? i - 1 : Math.floor(i / 2)]!);
  }
  return sent;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ScriptedModel } from '../src/model/scripted-model.js';
import type { ChatModel } from '../src/model/types.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { subjectKey } from '../src/triggers/types.js';
import { startAppWorld, startBenchApp, type AppWorld, type BenchApp } from './app-fixture.js';
import { until } from './until.js';
import { deliverConcurrently, labeled, latencyStats, type Delivery, type LatencyStats } from './deliveries.js';
import { sendPacedOnThread } from './paced-sender-thread.js';
import { mainThreadCpuMs } from './thread-cpu.js';

export interface AckPhase {
  ack: LatencyStats;
  /** Largest delay of a send against its slot (the sender kept pace if small). */
  lagMaxMs: number;
  /** Fewest and most jobs seen running while the deliveries were sent. */
  runningMin: number;
  runningMax: number;
  /** The receiver's main-thread CPU per delivery (ms, answer and all work after it; null: no /proc): what caps its rate, whatever the machine's load. */
  cpuMsPerDelivery: number | null;
  /** The receiver's event-loop delay while the deliveries came (p99, ms). */
  loopDelayP99Ms: number;
  /** Distinct deliveries without a job, and jobs still waiting for their sender's check once the app was done with them. */
  lost: number;
  undecided: number;
}

export interface AckUnderJobsBench {
  perSecond: number;
  seconds: number;
  /** How late the fake GitHub answers the collaborator-permission call. */
  permissionDelayMs: number;
  /** How late it answers the read of `.github/greenfix.yml`. */
  configDelayMs: number;
  /** Distinct senders (all with write access): most checks miss the permission cache. */
  senders: number;
  /** Baseline: a receiver-only app, nothing running. */
  idle: AckPhase;
  /** The same deliveries to an app whose four workers each run a job (one per repository). */
  busy: AckPhase;
  /** Jobs that ended during the busy phase (0: the same four ran throughout). */
  busyJobsEnded: number;
  /** With `starting`: the same deliveries to such an app with its workers idle, so four jobs start during the stream (the first four deliveries'). */
  starting?: AckPhase;
}

export interface AckUnderJobsOptions {
  sandbox: Sandbox;
  perSecond?: number;
  seconds?: number;
  permissionDelayMs?: number;
  configDelayMs?: number;
  senders?: number;
  /** Also measure the stream while four jobs start (AckUnderJobsBench.starting). */
  starting?: boolean;
}

const JOBS = 4;
const WARMUP = 300;
/** Each job's model: `sleep 2` in the sandbox, over and over (varied, or stuck detection ends the run), so the workers stay busy. */
const SLEEPER = new ScriptedModel(Array.from({ length: 90 }, (_, i) => ({ tool_calls: [{ name: 'run', arguments: { command: `sleep 2; echo step ${i}` } }] })));

/**
 * Issue 26's webhook figure: open-loop signed `issues.labeled` deliveries at `perSecond` for
 * `seconds`, each enqueueing a job whose sender must be checked, while GitHub answers the
 * permission call `permissionDelayMs` late (and the config read `configDelayMs`); once to a receiver with nothing running, once to an
 * app (role all) whose four workers run a job each. The sender and the fake GitHub run on worker
 * threads, so the app's event loop is its own.
 */
export async function benchAckUnderJobs(o: AckUnderJobsOptions): Promise<AckUnderJobsBench> {
  const { perSecond = 200, seconds = 5, permissionDelayMs = 300, configDelayMs = 0, senders = 500 } = o;
  const roles = Object.fromEntries(Array.from({ length: senders }, (_, i) => [`dev-${i}`, 'write']));
  const world = await startAppWorld({ githubOnThread: true, repos: JOBS, roles, permissionDelayMs, configDelayMs });
  const count = perSecond * seconds;
  try {
    const receiver = await startBenchApp(world, 'ack-idle', { role: 'receiver', model: SLEEPER, sandbox: o.sandbox, throttled: false });
    let idle: AckPhase;
    try {
      await warmUp(world, receiver);
      idle = await phase(world, receiver, 'idle', count, perSecond, senders);
    } finally {
      await receiver.stop();
    }
    const calls = { n: 0 };
    const model: ChatModel = { name: 'sleeper', complete: (request) => ((calls.n += 1), SLEEPER.complete(request)) };
    const b = await startBenchApp(world, 'ack-busy', { role: 'all', model, sandbox: o.sandbox, throttled: false, concurrency: JOBS });
    let stopped: Promise<void> | undefined;
    const stopOnce = () => (stopped ??= b.stop());
    try {
      await warmUp(world, b);
      await deliverConcurrently(b.webhookUrl, world.repositories.map((repo, i) => ({ id: `start-${i}`, payload: labeled(repo, 1, 'agent-fix') })), JOBS);
      await until(() => calls.n >= JOBS && b.app.pool?.running() === JOBS, 180_000, `${JOBS} jobs in their agent loop`);
      const busy = await phase(world, b, 'busy', count, perSecond, senders);
      const counts = await b.queue.counts();
      const result = { perSecond, seconds, permissionDelayMs, configDelayMs, senders, idle, busy, busyJobsEnded: counts.succeeded + counts.failed + counts.cancelled };
      if (!o.starting) return result;
      await stopOnce();
      const s = await startBenchApp(world, 'ack-starting', { role: 'all', model, sandbox: o.sandbox, throttled: false, concurrency: JOBS });
      try {
        await warmUp(world, s);
        return { ...result, starting: await phase(world, s, 'starting', count, perSecond, senders) };
      } finally {
        await s.stop();
      }
    } finally {
      await stopOnce();
    }
  } finally {
    await world.close();
  }
}

/** Deliveries greenfix ignores (another label): the server, the token, the config read and the JIT warmed, nothing enqueued. */
async function warmUp(world: AppWorld, b: BenchApp): Promise<void> {
  const ignored = Array.from({ length: WARMUP }, (_, i) => ({ id: `warm-${b.webhookUrl}-${i}`, payload: labeled(world.repositories[i % world.repositories.length]!, 1 + i, 'documentation') }));
  await deliverConcurrently(b.webhookUrl, ignored, 10);
}

async function phase(world: AppWorld, b: BenchApp, tag: string, count: number, perSecond: number, senders: number): Promise<AckPhase> {
  const repos = world.repositories;
  const sent: Delivery[] = Array.from({ length: count }, (_, i) => ({ id: `${tag}-${i}`, payload: labeled(repos[i % repos.length]!, 10_000 + i, 'agent-fix', `dev-${i % senders}`) }));
  const running = { min: Number.POSITIVE_INFINITY, max: 0 };
  const look = () => {
    const n = b.app.pool?.running() ?? 0;
    running.min = Math.min(running.min, n);
    running.max = Math.max(running.max, n);
  };
  const watch = setInterval(look, 10);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const cpuBefore = mainThreadCpuMs();
  delay.enable();
  const run = await sendPacedOnThread(b.webhookUrl, sent, perSecond).finally(() => (clearInterval(watch), delay.disable()));
  look();
  await b.app.afterAnswer?.idle();
  const cpuAfter = mainThreadCpuMs();
  const cpuMsPerDelivery = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / count;
  let lost = 0;
  let undecided = 0;
  for (const d of sent) {
    const jobs = await b.queue.listBySubject(subjectKey(d.payload.repository as { id: number }, (d.payload.issue as { number: number }).number));
    if (jobs.length === 0) lost += 1;
    if (jobs.some((job) => job.state === 'authorizing')) undecided += 1;
  }
  const loopDelayP99Ms = delay.percentile(99) / 1e6;
  return { ack: latencyStats(run.answers), lagMaxMs: Math.max(0, ...run.answers.map((a) => a.lagMs)), cpuMsPerDelivery, loopDelayP99Ms, runningMin: running.min, runningMax: running.max, lost, undecided };
}

import type { SetupSecretGrant } from '../config/setup-secrets.js';
import { join } from 'node:path';
import type { ImageSettings } from '../config/image-settings.js';
import { createImageCache } from '../image/image-cache.js';
import type { ImageTools } from '../image/image-tools.js';
import { Probot, ProbotOctokit, Server } from 'probot';
import type { Logger } from 'pino';
import { createAfterAnswer, type AfterAnswer } from '../app/after-answer.js';
import { EVENTS, greenfixApp } from '../app/greenfix-app.js';
import { recoverDeliveries } from '../app/recover-deliveries.js';
import { jobLogger } from '../app/logger-context.js';
import { limitWebhookBodies } from '../app/webhook-body-limit.js';
import { DEFAULT_WEBHOOK_MAX_BYTES } from '../config/env-config.js';
import { createMetrics, type Metrics } from '../app/metrics.js';
import { readConfigFile } from '../github/config-file.js';
import { CONFIG_TOKEN_SCOPE, gitTokenScope, mintInstallationToken, renewingToken, restTokenScope, type TokenScope } from '../github/installation-token.js';
import { createGitHost } from '../github/octokit-host.js';
import { onGitHubThread } from '../github/github-fetch.js';
import { scopedOctokit } from '../github/scoped-octokit.js';
import { BUILTIN_PRICES, priceOf, type PriceTable } from '../model/prices.js';
import type { ChatModel } from '../model/types.js';
import type { JobQueue } from '../queue/types.js';
import { DEFAULT_JOB_RETENTION_DAYS, DEFAULT_QUEUE_RETENTION_DAYS } from '../config/env-config.js';
import type { Sandbox } from '../sandbox/types.js';
import type { JobEnv } from '../job/env.js';
import { startJobRetention, DEFAULT_RETENTION_SWEEP_MS, type RetentionTimer } from '../worker/job-retention-timer.js';
import { sweepJobDirs } from '../worker/job-retention.js';
import { jobsDir } from '../job/files.js';
import { runJob } from '../job/run-job.js';
import { startWorkerPool } from '../worker/worker-pool.js';
import { type WorkerPool } from '../worker/worker-types.js';
import type { JobRequest } from '../triggers/types.js';
import { createDepCache } from '../workspace/dep-cache.js';
import { signRunPath, type RunLinkKey } from '../run-log/run-link.js';
import { renderRunPage } from '../run-log/render-html.js';
import { loadJobRunPage } from '../job/run-page.js';
import { pushBranch } from '../workspace/push-branch.js';
import type { EffectWrappers } from './crash-wrappers.js';
import type { OperatorCaps } from '../config/operator-caps.js';
import { createBudgetTracker } from '../job/budget-tracker.js';

/** Finished jobs forgotten per retention sweep (hourly): far more than a busy hour finishes. */
const PRUNE_BATCH = 5_000;

export interface AppOptions {
  appId: number;
  privateKey: string;
  secret: string;
  /** GitHub's API (GHES: `<protocol>://<host>/api/v3`); undefined = api.github.com. */
  baseUrl?: string;
  host: string;
  port: number;
  role: 'all' | 'receiver' | 'worker';
  log: Logger;
  queue: JobQueue;
  model: ChatModel;
  /** Model prices (GREENFIX_PRICES over the built-in ones); absent: the built-in ones. */
  prices?: PriceTable;
  sandbox: Sandbox;
  workdir: string;
  concurrency: number;
  workerId: string;
  /** How this process wraps its effects (crash-wrappers.ts: GREENFIX_CRASH_AT, else none). */
  wrap: EffectWrappers;
  /** Shared GitHub rate limiting across processes (Probot's throttling through Redis). */
  redisUrl?: string;
  /** Probot's Octokit class; tests pass one with throttling off (it spaces writes a second apart). */
  Octokit?: typeof ProbotOctokit;
  /** How long finished jobs' directories are kept (GREENFIX_JOB_RETENTION_DAYS); default 7 days. */
  jobRetentionMs?: number;
  /** How long the queue remembers finished jobs (GREENFIX_QUEUE_RETENTION_DAYS); default 30 days. */
  queueRetentionMs?: number;
  /** Largest webhook body accepted (GREENFIX_WEBHOOK_MAX_BYTES); default 5 MiB. Larger: 413, unread. */
  webhookMaxBytes?: number;
  /** Environment images (GREENFIX_DEFAULT_IMAGE, _REGISTRY_AUTH_FILE, …) and skopeo/umoci as found (null: not installed); absent: none. */
  images?: ImageSettings & { tools: ImageTools | null };
  /** The dependency cache's cap (GREENFIX_CACHE_MB); 0 or absent = no cache. */
  cacheBytes?: number;
  /** The operator's setup secrets (GREENFIX_SETUP_SECRETS_FILE); absent: none. */
  setupSecrets?: readonly SetupSecretGrant[];
  /** Secrets the run log redacts besides the webhook secret (the model's API key). */
  redactSecrets?: string[];
  /** The run page: greenfix's public URL (GREENFIX_PUBLIC_URL) and the link key; absent = no page links. */
  runPage?: { publicUrl: string; key: RunLinkKey };
  /** The operator's spend caps (GREENFIX_*_USD); absent: only repositories' own caps apply. */
  caps?: OperatorCaps;
  /** The jobs' clock (spend windows, reports), the same as the queue's; default Date.now. Tests inject one. */
  now?: () => number;
  /** Lease/heartbeat/poll timings; defaults suit production. */
  timings?: {
    leaseMs?: number;
    heartbeatMs?: number;
    pollMs?: number;
    progressIntervalMs?: number;
    retentionSweepMs?: number;
    /** The sweep for jobs left waiting for their sender's authorisation (greenfix-app.ts). */
    authorizeSweep?: { everyMs: number; strandedAfterMs: number };
  };
}

export interface RunningApp {
  /** `http://host:port` of the webhook server; null for a worker-only process. */
  url: string | null;
  pool: WorkerPool | null;
  /** The job-directory sweep of a worker process; null for a receiver. */
  retention: RetentionTimer | null;
  metrics: Metrics;
  /** What the webhook handler does after its answers (authorising senders, reactions); null for a worker-only process. */
  afterAnswer: AfterAnswer | null;
  stop(graceMs: number): Promise<void>;
}

/**
 * Starts what the role asks for: the webhook server (Probot), the worker pool, or both. The
 * receiver only records jobs; workers (here or in other processes) claim and run them.
 */
export async function startApp(o: AppOptions): Promise<RunningApp> {
  const metrics = createMetrics();
  const probotOptions = { appId: o.appId, privateKey: o.privateKey, secret: o.secret, log: o.log, ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}), Octokit: onGitHubThread(o.Octokit ?? ProbotOctokit), ...(o.redisUrl ? { redisConfig: o.redisUrl } : {}) };
  const t = { leaseMs: 60_000, heartbeatMs: 15_000, pollMs: 1_000, progressIntervalMs: 15_000, retentionSweepMs: DEFAULT_RETENTION_SWEEP_MS, ...o.timings };
  let pool: WorkerPool | null = null;
  let retention: RetentionTimer | null = null;
  if (o.role !== 'receiver') {
    const probot = new Probot(probotOptions);
    const depCache = o.cacheBytes
      ? createDepCache({
          dir: join(o.workdir, 'dep-cache'),
          capBytes: o.cacheBytes,
          warn: (message) => o.log.warn({}, message),
          now: Date.now,
          record: (event, bytes) => metrics.depCache(event, bytes),
        })
      : undefined;
    const budgets = createBudgetTracker(o.queue, o.now ?? Date.now);
    metrics.setBudgets(() => budgets.remaining());
    const images = o.images ? jobImages(o.workdir, o.images) : undefined;
    const env = { ...jobEnv(o, probot, metrics, t.progressIntervalMs), ...(depCache ? { depCache } : {}), ...(images ? { images } : {}), onCaps: budgets.note };
    const resumed = await o.queue.abandon(o.workerId);
    if (resumed > 0) o.log.info({ jobs: resumed }, 'resuming jobs this worker was running when it stopped');
    pool = startWorkerPool({
      queue: o.wrap.queue(o.queue),
      workerId: o.workerId,
      concurrency: o.concurrency,
      leaseMs: t.leaseMs,
      heartbeatMs: t.heartbeatMs,
      pollMs: t.pollMs,
      runJob: (claimed, signal) => runJob({ ...env, log: jobLogger(o.log, claimed.job) }, claimed, signal),
      log: o.log,
    });
    const queueRetentionMs = o.queueRetentionMs ?? DEFAULT_QUEUE_RETENTION_DAYS * 86_400_000;
    retention = startJobRetention({
      sweep: () => sweepJobDirs(retentionDeps(o)),
      // Oldest first, a bounded batch per sweep, so one sweep never holds the queue for long.
      prune: () => o.queue.prune(Date.now() - queueRetentionMs, PRUNE_BATCH),
      ...(depCache ? { sweepCache: () => depCache.sweep() } : {}),
      intervalMs: t.retentionSweepMs,
      log: o.log,
    });
  }
  let server: Server | null = null;
  let url: string | null = null;
  let afterAnswer: AfterAnswer | null = null;
  if (o.role !== 'worker') {
    afterAnswer = createAfterAnswer({ warn: (obj, msg) => o.log.warn(obj, msg) });
    server = new Server({ Probot: Probot.defaults(probotOptions), host: o.host, port: String(o.port) as unknown as number, log: o.log });
    const workers = pool;
    await server.load(greenfixApp({ queue: o.queue, metrics, afterAnswer, ...(t.authorizeSweep ? { sweep: t.authorizeSweep } : {}), wake: () => workers?.wake(), ...(o.runPage ? { runPages: runPages(o, o.runPage.key) } : {}) }));
    const http = await server.start();
    // In front of Probot's own request listener, before any request is read (no I/O has run
    // since `listen` called back: only promise continuations).
    limitWebhookBodies(http, {
      maxBytes: o.webhookMaxBytes ?? DEFAULT_WEBHOOK_MAX_BYTES,
      onRefused: (info) => o.log.warn({ ...info, maxBytes: o.webhookMaxBytes ?? DEFAULT_WEBHOOK_MAX_BYTES }, 'webhook body over the limit: answered 413 without reading it'),
    });
    const address = http.address();
    url = address && typeof address === 'object' ? `http://${o.host}:${address.port}` : null;
    // Listening now: what GitHub sends again arrives.
    const answered = o.queue.answered;
    if (answered) afterAnswer.run('recovering deliveries a power cut took', () => recoverDeliveries({ answered, octokit: () => new Probot(probotOptions).auth(), events: EVENTS, log: o.log }));
  }
  return {
    url,
    pool,
    retention,
    metrics,
    afterAnswer,
    async stop(graceMs) {
      await retention?.stop();
      await server?.stop();
      await afterAnswer?.idle();
      await pool?.stop({ graceMs });
    },
  };
}

function retentionDeps(o: AppOptions) {
  return {
    workdir: o.workdir,
    jobsDir,
    jobState: async (id: string) => (await o.queue.get(id))?.state ?? null,
    now: Date.now,
    retentionMs: o.jobRetentionMs ?? DEFAULT_JOB_RETENTION_DAYS * 86_400_000,
  };
}

function jobEnv(o: AppOptions, probot: Probot, metrics: Metrics, progressIntervalMs: number): JobEnv {
  const octokitFor = (request: JobRequest) => probot.auth(request.installationId);
  return {
    workdir: o.workdir,
    sandbox: o.sandbox,
    model: o.model,
    price: priceOf(o.prices ?? BUILTIN_PRICES, o.model.name),
    // A job's tokens name its one repository: REST calls get the app's permissions there, git
    // gets contents only. Both live in memory for the job and are renewed before they expire.
    hostFor: async (request) => {
      const installation = await octokitFor(request);
      const renewing = (scope: TokenScope) => renewingToken({ mint: () => mintInstallationToken(installation, request.installationId, scope), now: Date.now });
      const rest = scopedOctokit(installation, renewing(restTokenScope(request.repo.id)));
      return o.wrap.host(createGitHost(rest, { owner: request.repo.owner, repo: request.repo.name }, { gitToken: renewing(gitTokenScope(request.repo.id)) }));
    },
    readConfig: async (request) => {
      const installation = await octokitFor(request);
      const octokit = scopedOctokit(installation, renewingToken({ mint: () => mintInstallationToken(installation, request.installationId, CONFIG_TOKEN_SCOPE), now: Date.now }));
      return readConfigFile(octokit, { owner: request.repo.owner, repo: request.repo.name });
    },
    queue: o.queue,
    ...(o.caps ? { caps: o.caps } : {}),
    ...(o.setupSecrets ? { setupSecrets: o.setupSecrets } : {}),
    push: o.wrap.push(pushBranch),
    wrap: o.wrap,
    now: o.now ?? Date.now,
    log: o.log,
    progressIntervalMs,
    secrets: [o.secret, ...(o.redactSecrets ?? [])],
    ...(o.runPage ? { runPageUrl: runPageUrl(o, o.runPage) } : {}),
    onFinished: (s) => metrics.jobFinished(s.kind as JobRequest['kind'], s.outcome, s.seconds, s.tokens, s.steps, { repo: s.repo, usd: s.costUsd }),
  };
}

/** A job's signed run-page link: valid as long as the job's directory is kept (its retention). */
function runPageUrl(o: AppOptions, page: { publicUrl: string; key: RunLinkKey }): (jobId: string) => string {
  const retentionMs = o.jobRetentionMs ?? DEFAULT_JOB_RETENTION_DAYS * 86_400_000;
  return (jobId) => `${page.publicUrl.replace(/\/+$/, '')}${signRunPath(page.key, jobId, Date.now() + Math.max(retentionMs, 3_600_000))}`;
}

/** The run pages this server answers: the jobs in its workdir (a receiver without the workers' disk has none). */
function runPages(o: AppOptions, key: RunLinkKey) {
  const deps = { workdir: o.workdir, queue: o.queue, secrets: [o.secret, ...(o.redactSecrets ?? [])] };
  return {
    key,
    now: Date.now,
    onError: (error: unknown) => o.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'run page failed'),
    load: async (jobId: string) => {
      const data = await loadJobRunPage(deps, jobId);
      return data ? renderRunPage({ jobId, ...data }) : null;
    },
  };
}

/** The workdir's image cache (`<workdir>/images`) and the operator's default image, for every job. */
function jobImages(workdir: string, settings: ImageSettings & { tools: ImageTools | null }): NonNullable<JobEnv['images']> {
  const cache = createImageCache({
    dir: join(workdir, 'images'),
    capBytes: settings.cacheBytes,
    tools: settings.tools,
    access: { authFile: settings.authFile ?? null, insecureRegistries: settings.insecureRegistries },
  });
  return { cache, ...(settings.defaultImage ? { defaultImage: settings.defaultImage } : {}) };
}

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import nock from 'nock';
import { pino } from 'pino';
import { ProbotOctokit } from 'probot';
import { noEffectWrappers } from '../../src/cli/crash-wrappers.js';
import { startApp, type AppOptions, type RunningApp } from '../../src/cli/start-app.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import type { PriceTable } from '../../src/model/prices.js';
import type { ChatModel } from '../../src/model/types.js';
import { openBullmqQueue } from '../../src/queue/bullmq-queue.js';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { startRedisServer } from '../support/redis-server.js';
import type { JobQueue } from '../../src/queue/types.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { newFakeGitHubState, nockFakeGitHub, type FakeGitHubState } from '../support/fake-github.js';
import { testAppCredentials } from '../support/github-app.js';
import { startGitHttpServer, type GitHttpRequest, type GitHttpServer } from '../support/git-http-server.js';
import { sendWebhook, type WebhookAnswer } from '../support/webhook-client.js';

import { INSTALLATION, SECRET, seedRemote } from './remote-fixture.js';

export { INSTALLATION, SECRET };

export interface Harness {
  dir: string;
  state: FakeGitHubState;
  queue: JobQueue;
  app: RunningApp;
  /** The bare repository behind the fake GitHub's git remote. */
  remote: string;
  cloneUrl: string;
  repository: Record<string, unknown>;
  send(event: string, payload: Record<string, unknown>, deliveryId?: string): Promise<WebhookAnswer>;
  /** Waits until the handler's work after its answers is done (authorising senders), and no job runs and none is claimable. */
  settle(): Promise<void>;
  /** Every request the git remote served (clones, fetches, pushes). */
  gitRequests: GitHttpRequest[];
  /** The tree of a branch in the remote, or null. */
  remoteTree(branch: string): string | null;
  close(): Promise<void>;
}

export interface HarnessOptions {
  files: Record<string, string>;
  script: ScriptTurn[];
  state?: Partial<FakeGitHubState>;
  /** Instead of the scripted model (e.g. a real client against a fake endpoint). */
  model?: ChatModel;
  /** Model prices (GREENFIX_PRICES); default the built-in table, which has no `scripted`. */
  prices?: PriceTable;
  /** Instead of a SQLite queue in the temp dir (e.g. the Redis queue); the harness closes it. */
  queue?: JobQueue;
  /** 'redis': the BullMQ queue on a redis-server of the harness's own (on the `now` clock), stopped by close. */
  store?: 'sqlite' | 'redis';
  /** Probot's Octokit class; default UNTHROTTLED_OCTOKIT. */
  Octokit?: typeof ProbotOctokit;
  /** GREENFIX_JOB_RETENTION_DAYS in ms; default startApp's (7 days). */
  jobRetentionMs?: number;
  /** GREENFIX_QUEUE_RETENTION_DAYS in ms; default startApp's (30 days). */
  queueRetentionMs?: number;
  /** The run pages (GREENFIX_PUBLIC_URL and the link key); default none. */
  runPage?: AppOptions['runPage'];
  /** Sandbox settings (GREENFIX_SANDBOX_DISK_MB…), as the deployment's environment would give them. */
  sandboxEnv?: Record<string, string>;
  /** The operator's spend caps (GREENFIX_*_USD); default none. */
  caps?: AppOptions['caps'];
  /** GREENFIX_CACHE_MB in bytes: the dependency cache; default none (setup runs every time). */
  cacheBytes?: number;
  /** The operator's setup secrets (GREENFIX_SETUP_SECRETS_FILE, read); default none. */
  setupSecrets?: AppOptions['setupSecrets'];
  /** One clock for the queue and the jobs (spend windows, backoff); default Date.now. */
  now?: () => number;
  /** The sweep for jobs left waiting for their sender's authorisation; default the app's (a minute). */
  authorizeSweep?: { everyMs: number; strandedAfterMs: number };
  /** Environment images (GREENFIX_DEFAULT_IMAGE…, skopeo and umoci); default none. */
  images?: AppOptions['images'];
}

/**
 * ProbotOctokit with the throttling plugin really off. `.defaults({ throttle: { enabled: false } })`
 * is not enough: Probot passes its own `throttle` handlers per instance and the shallow merge of
 * Octokit's `defaults` replaces ours, so writes stayed spaced 1-3 s apart. A function default runs
 * after that merge.
 */
export const UNTHROTTLED_OCTOKIT: typeof ProbotOctokit = ProbotOctokit.defaults((options: Record<string, any>) => ({
  ...options,
  throttle: { ...options['throttle'], enabled: false },
}));

/** Resolves once `check()` holds; for effects of work running elsewhere (bounded, short interval). */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A tool-call turn of the scripted model. */
export function turn(...calls: Array<[string, Record<string, unknown>]>): ScriptTurn {
  return { tool_calls: calls.map(([name, args]) => ({ name, arguments: args })) };
}

/**
 * greenfix as deployed, in this process: the real Probot server on loopback, the SQLite queue,
 * workers, bwrap, git over real HTTP; GitHub's REST API answered by a stateful fake through nock;
 * the model scripted.
 */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const dir = tempDir('greenfix-app-');
  const state = newFakeGitHubState({ roles: { octocat: 'admin' }, ...options.state });
  const { remoteRoot, remote } = seedRemote(dir, state.owner, state.repo, options.files);
  const gitServer: GitHttpServer = await startGitHttpServer({ root: remoteRoot, token: state.token });
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  nockFakeGitHub(state);
  const clock = options.now ? { now: options.now } : {};
  const redis = options.store === 'redis' ? await startRedisServer() : null;
  const queue = options.queue ?? (redis ? await openBullmqQueue({ url: redis.url, prefix: '{harness}', ...clock }) : openSqliteQueue({ path: join(dir, 'greenfix.db'), ...clock }));
  const log = pino({ level: 'silent' });
  const sandbox = await createSandbox({ env: { PATH: process.env.PATH, ...options.sandboxEnv }, log: () => undefined });
  const app = await startApp({
    ...testAppCredentials(),
    secret: SECRET,
    host: '127.0.0.1',
    port: 0,
    role: 'all',
    log,
    queue,
    model: options.model ?? new ScriptedModel(options.script),
    ...(options.prices ? { prices: options.prices } : {}),
    sandbox,
    workdir: join(dir, 'work'),
    concurrency: 2,
    ...(options.jobRetentionMs === undefined ? {} : { jobRetentionMs: options.jobRetentionMs }),
    ...(options.queueRetentionMs === undefined ? {} : { queueRetentionMs: options.queueRetentionMs }),
    ...(options.runPage ? { runPage: options.runPage } : {}),
    ...(options.caps ? { caps: options.caps } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.cacheBytes ? { cacheBytes: options.cacheBytes } : {}),
    ...(options.setupSecrets ? { setupSecrets: options.setupSecrets, redactSecrets: options.setupSecrets.map((g) => g.value) } : {}),
    ...(options.images ? { images: options.images } : {}),
    workerId: 'test-worker',
    wrap: noEffectWrappers,
    Octokit: options.Octokit ?? UNTHROTTLED_OCTOKIT,
    timings: { leaseMs: 10_000, heartbeatMs: 500, pollMs: 50, progressIntervalMs: 0, ...(options.authorizeSweep ? { authorizeSweep: options.authorizeSweep } : {}) },
  });
  const cloneUrl = gitServer.url(`${state.owner}/${state.repo}.git`);
  const repository = {
    id: 1296269,
    name: state.repo,
    full_name: `${state.owner}/${state.repo}`,
    owner: { login: state.owner, id: 1, type: 'Organization' },
    clone_url: cloneUrl,
    default_branch: 'main',
  };
  let deliveries = 0;
  return {
    dir,
    state,
    queue,
    app,
    remote,
    cloneUrl,
    repository,
    gitRequests: gitServer.requests,
    send: (event, payload, deliveryId) =>
      sendWebhook(`${app.url}/api/github/webhooks`, { event, deliveryId: deliveryId ?? `delivery-${(deliveries += 1)}`, payload, secret: SECRET }),
    settle: async () => {
      await app.afterAnswer?.idle();
      await app.pool?.drained();
    },
    remoteTree: (branch) => {
      try {
        return execFileSync('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{tree}`], { cwd: remote, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      } catch {
        return null; // no such branch
      }
    },
    async close() {
      await app.stop(0);
      await queue.close();
      await redis?.stop();
      await gitServer.close();
      nock.cleanAll();
      nock.enableNetConnect();
      cleanup(dir);
    },
  };
}

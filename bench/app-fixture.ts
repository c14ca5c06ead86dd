import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ProbotOctokit } from 'probot';
import { noEffectWrappers } from '../src/cli/crash-wrappers.js';
import { startApp, type RunningApp } from '../src/cli/start-app.js';
import type { ChatModel } from '../src/model/types.js';
import { openSqliteQueue } from '../src/queue/sqlite-queue.js';
import type { JobQueue } from '../src/queue/types.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { git } from '../src/workspace/git.js';
import { newFakeGitHubState, type FakeGitHubState } from '../test/support/fake-github-state.js';
import { startBenchGitServer, type BenchGitServer } from './git-server-process.js';
import { serveBenchGitHub, type FakeGitHubServer } from './fake-github-server.js';
import { serveBenchGitHubOnThread } from './fake-github-thread.js';

export const BENCH_SECRET = 'bench-secret';
export const BENCH_INSTALLATION = 42;
const REPO_NAMES = ['widgets', 'gadgets', 'gizmos', 'doohickeys'] as const;

/** Everything an app under benchmark talks to: a fake GitHub, a git remote, two repositories. */
export interface AppWorld {
  dir: string;
  state: FakeGitHubState;
  github: FakeGitHubServer;
  gitServer: BenchGitServer;
  /** `repository` objects of webhook payloads, one per repository (one job at a time each). */
  repositories: Array<Record<string, unknown>>;
  credentials: { appId: number; privateKey: string };
  close(): Promise<void>;
}

export interface AppWorldOptions {
  /** The fake GitHub on a worker thread (load bench); `state` is then only its starting copy. */
  githubOnThread?: boolean;
  /** Repositories (one job runs at a time in each); default 2, at most 4. */
  repos?: number;
  /** Roles besides octocat's admin (senders of the deliveries). */
  roles?: Record<string, string>;
  /** The collaborator-permission call answers this late (a slow GitHub API); default at once. */
  permissionDelayMs?: number;
  /** The config read (`.github/greenfix.yml`) answers this late; default at once. */
  configDelayMs?: number;
}

export async function startAppWorld(options: AppWorldOptions = {}): Promise<AppWorld> {
  // Named by process, so a test can find its own leftovers beside another run's.
  const dir = mkdtempSync(join(tmpdir(), `gf-bench-app-${process.pid}-`));
  chmodSync(dir, 0o755); // the sandbox's unprivileged uid must reach the worktrees below it
  const names = REPO_NAMES.slice(0, options.repos ?? 2);
  const start = { owner: 'bench-org', repo: REPO_NAMES[0], roles: { ...options.roles, octocat: 'admin' } as FakeGitHubState['roles'] };
  const state = newFakeGitHubState(start);
  const remotes = join(dir, 'remote');
  for (const name of names) await makeBareRepo(join(dir, `seed-${name}`), join(remotes, state.owner, `${name}.git`));
  const gitServer = await startBenchGitServer({ root: remotes, token: state.token });
  const fakeOptions = { ...(options.permissionDelayMs ? { permissionDelayMs: options.permissionDelayMs } : {}), ...(options.configDelayMs ? { configDelayMs: options.configDelayMs } : {}) };
  const github = options.githubOnThread ? await serveBenchGitHubOnThread(start, fakeOptions) : await serveBenchGitHub(state, fakeOptions);
  const repositories = names.map((name, i) => ({
    id: 5_000 + i,
    name,
    full_name: `${state.owner}/${name}`,
    owner: { login: state.owner, id: 1, type: 'Organization' },
    clone_url: gitServer.url(`${state.owner}/${name}.git`),
    default_branch: 'main',
  }));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return {
    dir,
    state,
    github,
    gitServer,
    repositories,
    credentials: { appId: state.appId, privateKey },
    async close() {
      await github.close();
      await gitServer.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A repository whose tests are `make test` (detected, no setup step, no config file needed). */
async function makeBareRepo(seed: string, bare: string): Promise<void> {
  mkdirSync(seed, { recursive: true });
  writeFileSync(join(seed, 'Makefile'), 'test:\n\ttrue\n');
  writeFileSync(join(seed, 'README.md'), '# bench\n');
  const id = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgSign=false'];
  await git(['init', '-q', '-b', 'main', seed], { cwd: seed });
  await git(['add', '-A'], { cwd: seed });
  await git([...id, 'commit', '-q', '-m', 'base'], { cwd: seed });
  mkdirSync(bare, { recursive: true });
  await git(['clone', '-q', '--bare', seed, bare], { cwd: seed });
}

export interface BenchAppOptions {
  role: 'all' | 'receiver';
  model: ChatModel;
  sandbox: Sandbox;
  /** Probot's default Octokit spaces writes (the 👀 reaction) a second apart per installation. */
  throttled: boolean;
  /** The queue to record jobs in (closed by stop()); default: a SQLite file of its own. */
  queue?: JobQueue;
  /** The dependency cache's cap (GREENFIX_CACHE_MB as bytes); absent = no cache. */
  cacheBytes?: number;
  /** Jobs run at once (GREENFIX_CONCURRENCY); default 2. */
  concurrency?: number;
}

export interface BenchApp {
  app: RunningApp;
  queue: JobQueue;
  webhookUrl: string;
  stop(): Promise<void>;
}

/**
 * Probot's Octokit with the throttling plugin off. A plain `defaults({ throttle: { enabled: false } })`
 * does not do it: Probot passes its own `throttle` object, which replaces that one, and
 * ProbotOctokit's deep merge sets `enabled: true` again; a function runs after both.
 */
const UNTHROTTLED = ProbotOctokit.defaults((options: Record<string, any>) => ({ ...options, throttle: { ...options.throttle, enabled: false } }));

/** greenfix as `greenfix serve` starts it, on loopback, with its own queue file and workdir. */
export async function startBenchApp(world: AppWorld, name: string, o: BenchAppOptions): Promise<BenchApp> {
  const queue = o.queue ?? openSqliteQueue({ path: join(world.dir, `${name}.db`) });
  const app = await startApp({
    ...world.credentials,
    secret: BENCH_SECRET,
    baseUrl: world.github.baseUrl,
    host: '127.0.0.1',
    port: 0,
    role: o.role,
    log: pino({ level: 'silent' }),
    queue,
    model: o.model,
    sandbox: o.sandbox,
    workdir: join(world.dir, `work-${name}`),
    concurrency: o.concurrency ?? 2,
    workerId: `bench-${name}`,
    wrap: noEffectWrappers,
    ...(o.throttled ? {} : { Octokit: UNTHROTTLED }),
    timings: { pollMs: 50 },
    ...(o.cacheBytes ? { cacheBytes: o.cacheBytes } : {}),
  });
  if (!app.url) throw new Error('bench app has no webhook URL');
  return {
    app,
    queue,
    webhookUrl: `${app.url}/api/github/webhooks`,
    async stop() {
      await app.stop(0);
      await queue.close();
    },
  };
}

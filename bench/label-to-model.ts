import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ScriptedModel } from '../src/model/scripted-model.js';
import type { ChatModel } from '../src/model/types.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { DEFAULT_SANDBOX_PATH } from '../src/sandbox/environment.js';
import { runProcess } from '../src/util/run-process.js';
import { git } from '../src/workspace/git.js';
import { startAppWorld, startBenchApp, type AppWorld } from './app-fixture.js';
import { deliver, labeled } from './deliveries.js';

export interface LabelToModelBench {
  /** Label delivery → the job's first model request: first job (mirror cloned, `npm ci`, stored). */
  coldMs: number;
  /** The same with a warm mirror and a warm dependency cache (median of `runs`). */
  warmMs: number;
  warmRuns: number[];
  /** Warm jobs whose status comment says "restored from cache" (= warmRuns.length, else the figure is not warm). */
  cacheHits: number;
  ratio: number;
}

/** The model gives up at once: what is measured ends at its first request. */
const GIVE_UP = new ScriptedModel([]);

/**
 * Issue 15: from a label to the first model request, through the app as deployed (webhook, queue,
 * worker, mirror, worktree, `npm ci` setup in the sandbox, dependency cache). The repository has a
 * lockfile with a `file:` tarball dependency, so `npm ci` is real and offline.
 */
export async function benchLabelToModel(options: { sandbox: Sandbox; warmRuns?: number }): Promise<LabelToModelBench> {
  const runs = options.warmRuns ?? 3;
  const world = await startAppWorld();
  try {
    await addNodeProject(world);
    // One job at a time: the first request after a delivery is that job's.
    const first: { at: number | undefined } = { at: undefined };
    const model: ChatModel = {
      name: 'give-up',
      complete: (request) => {
        first.at ??= performance.now();
        return GIVE_UP.complete(request);
      },
    };
    const app = await startBenchApp(world, 'label', { role: 'all', model, sandbox: options.sandbox, throttled: false, cacheBytes: 5120 * 1024 ** 2 });
    try {
      const timeJob = async (issue: number): Promise<number> => {
        first.at = undefined;
        const started = performance.now();
        const answer = await deliver(app.webhookUrl, { id: `label-${issue}`, payload: labeled(world.repositories[0]!, issue, 'agent-fix') });
        if (answer.status !== 200) throw new Error(`label bench: delivery answered ${answer.status}`);
        await until(async () => {
          const c = await app.queue.counts();
          return c.succeeded + c.failed + c.cancelled >= issue;
        }, 180_000, `job on issue ${issue} to end`);
        const at = first.at;
        if (at === undefined) throw new Error(`label bench: the job on issue ${issue} ended without a model request (setup failed?)`);
        return at - started;
      };
      const coldMs = await timeJob(1);
      const warm: number[] = [];
      for (let i = 0; i < runs; i++) warm.push(await timeJob(2 + i));
      const warmMs = [...warm].sort((a, b) => a - b)[Math.floor(warm.length / 2)]!;
      const restored = (issue: number) => world.state.comments.some((c) => c.issue === issue && c.body.includes('restored from cache'));
      const cacheHits = warm.filter((_, i) => restored(2 + i)).length;
      return { coldMs, warmMs, warmRuns: warm, cacheHits, ratio: warmMs / coldMs };
    } finally {
      await app.stop();
    }
  } finally {
    await world.close();
  }
}

/** Turns the first repository into an npm project: a lockfile and a vendored tarball dependency. */
async function addNodeProject(world: AppWorld): Promise<void> {
  const seed = join(world.dir, 'seed-widgets');
  const pkg = join(world.dir, 'bench-dep');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'bench-dep', version: '1.0.0', main: 'index.js' }));
  writeFileSync(join(pkg, 'index.js'), "module.exports = () => 'ok';\n");
  mkdirSync(join(seed, 'vendor'), { recursive: true });
  const npmEnv = { PATH: DEFAULT_SANDBOX_PATH, HOME: world.dir, npm_config_cache: join(world.dir, 'host-npm') };
  const pack = await runProcess({ argv: ['npm', 'pack', '--pack-destination', join(seed, 'vendor'), pkg], cwd: pkg, env: npmEnv, timeoutMs: 60_000 });
  if (pack.exitCode !== 0) throw new Error(`npm pack failed: ${pack.stderr.slice(-500)}`);
  writeFileSync(join(seed, 'package.json'), `${JSON.stringify({ name: 'widgets', version: '1.0.0', private: true, dependencies: { 'bench-dep': 'file:vendor/bench-dep-1.0.0.tgz' }, scripts: { test: "node -e \"require('bench-dep')\"" } }, null, 2)}\n`);
  writeFileSync(join(seed, '.npmrc'), 'audit=false\nfund=false\nupdate-notifier=false\n');
  writeFileSync(join(seed, '.gitignore'), 'node_modules/\n');
  const lock = await runProcess({ argv: ['npm', 'install', '--package-lock-only', '--offline'], cwd: seed, env: npmEnv, timeoutMs: 60_000 });
  if (lock.exitCode !== 0) throw new Error(`npm install --package-lock-only failed: ${lock.stderr.slice(-500)}`);
  await git(['add', '-A'], { cwd: seed });
  await git(['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgSign=false', 'commit', '-q', '-m', 'npm project'], { cwd: seed });
  await git(['push', '-q', join(world.dir, 'remote', world.state.owner, 'widgets.git'), 'main'], { cwd: seed });
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`label bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

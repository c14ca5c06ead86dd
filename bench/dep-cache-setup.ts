import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prepareManagerCache } from '../src/fix/manager-cache.js';
import { runSetup } from '../src/fix/setup-phase.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { DEFAULT_SANDBOX_PATH } from '../src/sandbox/environment.js';
import { runProcess } from '../src/util/run-process.js';
import { createDepCache } from '../src/workspace/dep-cache.js';
import { git } from '../src/workspace/git.js';
import { addWorktree } from '../src/workspace/worktree.js';
import { median } from './median.js';

/** Restores measured (the issue asks min/median/max of five). */
const RESTORES = 5;

export interface DepCacheBench {
  packages: number;
  bytes: number;
  /** Worktree from the mirror + `npm ci` from the registry, cold npm cache (then stored). */
  coldMs: number;
  /** Worktree from the mirror + `npm ci` with npm's own cache warm (the package-cache bind), no dependency cache. */
  warmNpmMs: number;
  /** Worktree from the mirror + restore from the dependency cache: five jobs, each its own uid. */
  restoredRuns: number[];
  /** The median of restoredRuns. */
  restoredMs: number;
  /** The restore alone (links or copy, and its check), median of the five: the rest is the worktree and the job's sandbox. */
  restoreOnlyMs: number;
  /** restored / cold: median, min and max of the five. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
}

/**
 * A real project from the npm registry (the one networked benchmark): jest and its few hundred
 * dependencies, locked once by the host, then set up three ways through the real setup step
 * (bubblewrap, egress proxy): cold, warm npm cache, restored from the dependency cache.
 */
export async function benchDepCacheSetup(options: { sandbox: Sandbox; log: (m: string) => void }): Promise<DepCacheBench> {
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-bench-cache-'));
  chmodSync(dir, 0o755);
  try {
    const mirror = join(dir, 'mirror');
    mkdirSync(mirror);
    writeFileSync(join(mirror, 'package.json'), `${JSON.stringify({ name: 'bench', version: '1.0.0', private: true, devDependencies: { jest: '29.7.0' }, scripts: { test: 'jest --version' } }, null, 2)}\n`);
    writeFileSync(join(mirror, '.npmrc'), 'audit=false\nfund=false\nupdate-notifier=false\n');
    writeFileSync(join(mirror, '.gitignore'), 'node_modules/\n');
    options.log('dependency cache: locking jest 29.7.0 (npm install --package-lock-only, host)…');
    const lock = await runProcess({ argv: ['npm', 'install', '--package-lock-only', '--ignore-scripts'], cwd: mirror, env: { PATH: DEFAULT_SANDBOX_PATH, HOME: dir, npm_config_cache: join(dir, 'host-npm') }, timeoutMs: 300_000 });
    if (lock.exitCode !== 0) throw new Error(`npm install --package-lock-only failed: ${lock.stderr.slice(-500)}`);
    await git(['init', '-q', '-b', 'main'], { cwd: mirror });
    await git(['add', '-A'], { cwd: mirror });
    await git(['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'base'], { cwd: mirror });

    const cache = createDepCache({ dir: join(dir, 'dep-cache'), capBytes: 5120 * 1024 ** 2, warn: (m) => options.log(`warning: ${m}`), now: Date.now });
    const scope = { repo: 'bench', ref: 'refs/heads/main', defaultRef: 'refs/heads/main' };
    let n = 0;
    const job = async (withCache: boolean, npmCache: string) => {
      const started = performance.now();
      n += 1;
      const workspace = await addWorktree({ repo: mirror, path: join(dir, `job-${n}`), ref: 'HEAD', stateDir: join(dir, `state-${n}`) });
      // The job's own sandbox: its own uid when root, as a worker runs it.
      const runner = await options.sandbox.forJob({ workspace: workspace.root });
      try {
        const owner = runner.owner;
        const managerCache = await prepareManagerCache(join(dir, npmCache), scope, owner);
        const setup = await runSetup(
          { workspace, sandbox: runner, timeoutMs: 600_000, ...(managerCache ? { managerCache } : {}), ...(withCache ? { cache: { cache, scope, uidScheme: 'bench', owner } } : {}) },
          'npm ci',
        );
        if (setup.exitCode !== 0) throw new Error(`npm ci failed: ${setup.outputTail}`);
        return { ms: performance.now() - started, setup, root: workspace.root };
      } finally {
        await runner.release();
      }
    };
    options.log('dependency cache: cold setup (npm ci from the registry, empty npm cache)…');
    const cold = await job(true, 'npm-cold');
    options.log('dependency cache: warm npm cache, no dependency cache…');
    const warm = await job(false, 'npm-cold');
    const restoredRuns: number[] = [];
    const restoreOnly: number[] = [];
    let root = '';
    for (let i = 1; i <= RESTORES; i += 1) {
      options.log(`dependency cache: restored (${i}/${RESTORES})…`);
      const restored = await job(true, 'npm-other');
      if (restored.setup.cache?.result !== 'hit') throw new Error(`restore ${i} did not restore from the cache`);
      restoredRuns.push(restored.ms);
      restoreOnly.push(restored.setup.durationMs);
      root = restored.root;
    }
    const packages = readdirSync(join(root, 'node_modules')).filter((name) => !name.startsWith('.')).length;
    const restoredMs = median(restoredRuns);
    return {
      packages,
      bytes: cold.setup.cache?.bytes ?? 0,
      coldMs: cold.ms,
      warmNpmMs: warm.ms,
      restoredRuns,
      restoredMs,
      restoreOnlyMs: median(restoreOnly),
      ratio: restoredMs / cold.ms,
      ratioMin: Math.min(...restoredRuns) / cold.ms,
      ratioMax: Math.max(...restoredRuns) / cold.ms,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

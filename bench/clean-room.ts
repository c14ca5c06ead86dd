import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runTestCommand } from '../src/agent/test-run.js';
import { runSetup } from '../src/fix/setup-phase.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { DEFAULT_SANDBOX_PATH } from '../src/sandbox/environment.js';
import { runProcess } from '../src/util/run-process.js';
import { git } from '../src/workspace/git.js';
import { addWorktree } from '../src/workspace/worktree.js';
import { median } from './median.js';

export interface CleanRoomBench {
  trackedFiles: number;
  /** Files setup left (node_modules…), kept and restored. */
  stateFiles: number;
  /** The setup command in a fresh worktree (cold: empty npm cache). */
  setupMs: number;
  /** Keeping setup's state host-side, once per fix (setup-state.ts). */
  keepMs: number;
  /** The gate's own overhead per verdict, median: materialise the tree + restore the state (no test run). */
  materialiseMs: number;
  restoreMs: number;
  gateMs: number;
  /** The verify command's run in the room, for scale. */
  testMs: number;
  /** gateMs / setupMs. */
  ratio: number;
}

export interface CleanRoomBenchOptions {
  sandbox: Sandbox;
  /** Tracked files besides package.json (dayjs: about 1,100). */
  trackedFiles: number;
  /** Dependencies to lock and install with `npm ci` (needs the npm registry); none: `localSetup` instead. */
  devDependencies?: Record<string, string>;
  /** Without dependencies: a setup command that writes the state itself (the smoke test, offline). */
  localSetup?: string;
  verify: string;
  runs: number;
  log?: (message: string) => void;
}

/**
 * The clean-room gate's cost on a repository the size of dayjs: a real `npm ci` as the job's
 * setup (the baseline), then per verdict the tree materialised from the object store and setup's
 * state restored beside it — the gate's own overhead, without the test run — as a job does it
 * (its own sandbox uid when root, so the state is hard-linked).
 */
export async function benchCleanRoom(options: CleanRoomBenchOptions): Promise<CleanRoomBench> {
  const log = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-bench-room-'));
  chmodSync(dir, 0o755);
  try {
    const mirror = join(dir, 'mirror');
    mkdirSync(join(mirror, 'src', 'locale'), { recursive: true });
    const scripts = { test: options.verify };
    writeFileSync(join(mirror, 'package.json'), `${JSON.stringify({ name: 'bench', version: '1.0.0', private: true, scripts, devDependencies: options.devDependencies ?? {} }, null, 2)}\n`);
    writeFileSync(join(mirror, '.npmrc'), 'audit=false\nfund=false\nupdate-notifier=false\n');
    writeFileSync(join(mirror, '.gitignore'), 'node_modules/\n');
    for (let i = 0; i < options.trackedFiles; i++) writeFileSync(join(mirror, 'src', 'locale', `l${i}.js`), `export default { name: 'l${i}', months: '${'x'.repeat(1500)}' };\n`);
    if (options.devDependencies) {
      log('clean room: locking the dependencies (npm install --package-lock-only, host)…');
      const lock = await runProcess({ argv: ['npm', 'install', '--package-lock-only', '--ignore-scripts'], cwd: mirror, env: { PATH: DEFAULT_SANDBOX_PATH, HOME: dir, npm_config_cache: join(dir, 'host-npm') }, timeoutMs: 300_000 });
      if (lock.exitCode !== 0) throw new Error(`npm install --package-lock-only failed: ${lock.stderr.slice(-500)}`);
    }
    await git(['init', '-q', '-b', 'main'], { cwd: mirror });
    await git(['add', '-A'], { cwd: mirror });
    await git(['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'base'], { cwd: mirror });
    // Packed, as a fetched mirror is: a checkout then opens one pack, not a file per object.
    await git(['repack', '-adq'], { cwd: mirror });

    const workspace = await addWorktree({ repo: mirror, path: join(dir, 'job', 'worktree'), ref: 'HEAD', stateDir: join(dir, 'job', 'state') });
    chmodSync(join(dir, 'job'), 0o711);
    const runner = await options.sandbox.forJob({ workspace: workspace.root });
    try {
      log('clean room: setup (cold)…');
      const setupStarted = performance.now();
      const setup = await runSetup({ workspace, sandbox: runner, timeoutMs: 600_000 }, options.localSetup ?? 'npm ci');
      const setupMs = performance.now() - setupStarted;
      if (setup.exitCode !== 0) throw new Error(`setup failed: ${setup.outputTail}`);
      const keepStarted = performance.now();
      const kept = await workspace.keepSetupState(runner.owner);
      const keepMs = performance.now() - keepStarted;
      const tree = await workspace.treeHash();
      const materialise: number[] = [];
      const restore: number[] = [];
      let testMs = 0;
      log(`clean room: ${options.runs} verdicts' rooms (${options.trackedFiles} tracked files, ${kept.files} kept files)…`);
      for (let run = 0; run < options.runs; run++) {
        const room = await workspace.openCleanRoom(tree, runner.owner);
        materialise.push(room.timings.materialiseMs);
        restore.push(room.timings.restoreMs);
        if (run === 0) {
          const t = await runTestCommand({ sandbox: runner, place: { dir: room.dir, mountAt: room.mountAt, readOnlyBinds: workspace.sandboxBinds, scratchDir: workspace.scratchDir }, command: options.verify, timeoutMs: 120_000, label: 'gate' });
          if (t.result.exitCode !== 0) throw new Error(`the verify command failed in the clean room: ${t.result.stderr.slice(-500)}`);
          testMs = t.result.durationMs;
        }
        await room.dispose();
      }
      const materialiseMs = median(materialise);
      const restoreMs = median(restore);
      const gateMs = median(materialise.map((m, i) => m + restore[i]!));
      return { trackedFiles: options.trackedFiles, stateFiles: kept.files, setupMs, keepMs, materialiseMs, restoreMs, gateMs, testMs, ratio: gateMs / setupMs };
    } finally {
      await runner.release();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}


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
import type { CleanRoomStaging } from '../src/workspace/room-staging.js';
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
  /**
   * The gate's own overhead per verdict, median: materialise the tree + restore the state (no test
   * run), the state staged ahead as a job does it (room-staging.ts).
   */
  materialiseMs: number;
  restoreMs: number;
  gateMs: number;
  /** Staging the next room (the base checked out, the state placed), median: off the verdict's path, while the model works. */
  stageMs: number;
  /** The same run's baseline: rooms made at the verdict, nothing staged (as before staging), medians. */
  unstaged: { materialiseMs: number; restoreMs: number; gateMs: number };
  /** The verify command's run in the room, for scale (median). */
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
 * (its own sandbox uid when root, so the state is hard-linked; staged ahead, the staging awaited
 * before each room as a model's turn would). Before those, as many rooms restore the state entry
 * by entry with nothing staged: the same run's baseline.
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
      const room = async (staging: CleanRoomStaging | null): Promise<{ materialiseMs: number; restoreMs: number; stageMs: number; testMs: number }> => {
        const staged = staging ? await staging.ready() : null;
        if (staging && staged?.keptFiles !== kept.files) throw new Error(`staging placed ${staged?.keptFiles ?? 'nothing'}, not the ${kept.files} kept files`);
        const r = await workspace.openCleanRoom(tree, runner.owner);
        try {
          if (r.timings.staged !== (staging ? kept.files : 0) || r.timings.treeStaged !== (staging !== null)) throw new Error(`the room took ${r.timings.staged} staged files of ${kept.files}, the tree ${r.timings.treeStaged ? '' : 'not '}staged`);
          const t = await runTestCommand({ sandbox: runner, place: { dir: r.dir, mountAt: r.mountAt, readOnlyBinds: workspace.sandboxBinds, scratchDir: workspace.scratchDir }, command: options.verify, timeoutMs: 120_000, label: 'gate' });
          if (t.result.exitCode !== 0) throw new Error(`the verify command failed in the clean room: ${t.result.stderr.slice(-500)}`);
          return { materialiseMs: r.timings.materialiseMs, restoreMs: r.timings.restoreMs, stageMs: staged?.ms ?? 0, testMs: t.result.durationMs };
        } finally {
          await r.dispose();
        }
      };
      log(`clean room: ${options.runs} verdicts' rooms restoring entry by entry, then ${options.runs} staged ahead (${options.trackedFiles} tracked files, ${kept.files} kept files)…`);
      const unstaged = [];
      for (let run = 0; run < options.runs; run++) unstaged.push(await room(null));
      const staging = workspace.prepareCleanRooms(runner.owner);
      const staged = [];
      try {
        for (let run = 0; run < options.runs; run++) staged.push(await room(staging));
      } finally {
        await staging.stop();
      }
      const gateMs = median(staged.map((r) => r.materialiseMs + r.restoreMs));
      return {
        trackedFiles: options.trackedFiles,
        stateFiles: kept.files,
        setupMs,
        keepMs,
        materialiseMs: median(staged.map((r) => r.materialiseMs)),
        restoreMs: median(staged.map((r) => r.restoreMs)),
        gateMs,
        stageMs: median(staged.map((r) => r.stageMs)),
        unstaged: { materialiseMs: median(unstaged.map((r) => r.materialiseMs)), restoreMs: median(unstaged.map((r) => r.restoreMs)), gateMs: median(unstaged.map((r) => r.materialiseMs + r.restoreMs)) },
        testMs: median(staged.map((r) => r.testMs)),
        ratio: gateMs / setupMs,
      };
    } finally {
      await runner.release();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}


import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareManagerCache } from '../../src/fix/manager-cache.js';
import { runSetup, setupSummary, type SetupDeps } from '../../src/fix/setup-phase.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import type { JobSandbox, Sandbox } from '../../src/sandbox/types.js';
import { runProcess } from '../../src/util/run-process.js';
import { createDepCache, type DepCache } from '../../src/workspace/dep-cache.js';
import { addWorktree } from '../../src/workspace/worktree.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

/**
 * The setup step with the dependency cache, end to end: real git worktrees, real `npm ci` in the
 * real bubblewrap sandbox, offline (the one dependency is a tarball in the repository, resolved
 * with `file:`), the package managers' cache bound read-write.
 */
const temp = new TempDirs();
const leases: JobSandbox[] = [];
afterAll(async () => {
  for (const lease of leases.splice(0)) await lease.release();
  temp.cleanup();
});

let sandbox: Sandbox;
let repo: string;
let base: string;

const PACKAGE = {
  name: 'r',
  version: '1.0.0',
  private: true,
  dependencies: { 'dep-a': 'file:vendor/dep-a-1.0.0.tgz' },
  scripts: { test: "node -e \"process.exit(require('dep-a').twice(2) === 4 ? 0 : 1)\"" },
};
const LOCK = {
  name: 'r',
  version: '1.0.0',
  lockfileVersion: 3,
  requires: true,
  packages: { '': { name: 'r', version: '1.0.0', dependencies: PACKAGE.dependencies }, 'node_modules/dep-a': { version: '1.0.0', resolved: 'file:vendor/dep-a-1.0.0.tgz' } },
};

beforeAll(async () => {
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
  base = temp.make('gf-setup-cache-');
  chmodSync(base, 0o755);
  const src = join(base, 'pkg');
  mkdirSync(join(src, 'package'), { recursive: true });
  writeFileSync(join(src, 'package/package.json'), '{"name":"dep-a","version":"1.0.0","main":"index.js"}\n');
  writeFileSync(join(src, 'package/index.js'), 'exports.twice = (n) => n * 2;\n');
  repo = join(base, 'repo');
  mkdirSync(join(repo, 'vendor'), { recursive: true });
  const tar = await runProcess({ argv: ['tar', '-czf', join(repo, 'vendor/dep-a-1.0.0.tgz'), '-C', src, 'package'], cwd: base, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000 });
  expect(tar.exitCode).toBe(0);
  makeRepo(repo, {
    'package.json': `${JSON.stringify(PACKAGE)}\n`,
    'package-lock.json': `${JSON.stringify(LOCK)}\n`,
    '.npmrc': 'audit=false\nfund=false\nupdate-notifier=false\noffline=true\n',
    // setup-ran is ignored: git does not see it, so the install counts as writing node_modules only.
    '.gitignore': 'node_modules/\nsetup-ran\n',
  });
});

let jobs = 0;
/** A fresh worktree of the repository at `ref` and the job's own sandbox (its own uid, as root). */
async function job(ref = 'HEAD') {
  jobs += 1;
  const workspace = await addWorktree({ repo, path: join(base, `job-${jobs}`), ref, stateDir: join(base, `state-${jobs}`) });
  const runner = await sandbox.forJob({ workspace: workspace.root });
  leases.push(runner);
  return Object.assign(workspace, { runner });
}

type Job = Awaited<ReturnType<typeof job>>;

function deps(j: Job, cache: DepCache, managerCache?: SetupDeps['managerCache']): SetupDeps {
  return { workspace: j, sandbox: j.runner, timeoutMs: 120_000, cache: { cache, scope: 'repo-7', uidScheme: 'test', owner: j.runner.owner }, ...(managerCache ? { managerCache } : {}) };
}

const SETUP = 'npm ci && touch setup-ran';

describe('setup with the dependency cache', () => {
  it('a second job on the same lockfile restores node_modules, skips the install, and its tests pass', async () => {
    const dir = join(base, 'cache-1');
    const cache = createDepCache({ dir, capBytes: 1024 ** 3, warn: (m) => { throw new Error(m); }, now: Date.now });
    const first = await job();
    const managerCache = await prepareManagerCache(join(base, 'package-cache'), 'repo-7', first.runner.owner);
    expect(managerCache).toBeDefined();

    const installed = await runSetup(deps(first, cache, managerCache), SETUP);
    expect(installed).toEqual(expect.objectContaining({ exitCode: 0, cache: { result: 'stored', bytes: expect.any(Number) } }));
    expect(setupSummary(SETUP, installed)).toMatch(/ · installed \(\d+\.\d s\), cached$/);
    expect(existsSync(join(first.root, 'setup-ran'))).toBe(true);
    // npm's own cache went to the host-decided, read-write bind, not the sandbox's throwaway HOME.
    expect(readdirSync(join(managerCache!.bind.source, 'npm'))).toContain('_cacache');

    const second = await job();
    const restored = await runSetup(deps(second, cache), SETUP);
    // Another job, another uid (as root): the restored files are that job's, not the first's.
    const uid = second.runner.owner?.uid ?? process.getuid?.();
    expect(statSync(join(second.root, 'node_modules/dep-a/index.js')).uid).toBe(uid);
    expect(statSync(join(second.root, 'node_modules')).uid).toBe(uid);
    expect(restored).toEqual(expect.objectContaining({ exitCode: 0, cache: { result: 'hit', bytes: installed.cache!.bytes } }));
    expect(setupSummary(SETUP, restored)).toMatch(/ · restored from cache \(\d+\.\d s\)$/);
    expect(existsSync(join(second.root, 'setup-ran'))).toBe(false);
    const tests = await second.runner.run({ command: 'npm test', workspace: second.root, readOnlyBinds: second.sandboxBinds, timeoutMs: 60_000 });
    expect(tests.exitCode).toBe(0);
    expect(await second.treeHash()).toBe(await first.treeHash());
  });

  it('a changed lockfile misses and installs', async () => {
    const cache = createDepCache({ dir: join(base, 'cache-2'), capBytes: 1024 ** 3, warn: () => undefined, now: Date.now });
    const first = await job();
    expect((await runSetup(deps(first, cache), SETUP)).cache?.result).toBe('stored');
    const changed = await job();
    writeFileSync(join(changed.root, 'package-lock.json'), `${JSON.stringify({ ...LOCK, name: 'r2' })}\n`);
    const again = await runSetup(deps(changed, cache), SETUP);
    expect(again.cache?.result).not.toBe('hit');
    expect(existsSync(join(changed.root, 'setup-ran'))).toBe(true);
  });

  it('a setup that also writes a file git sees is not stored: a restore would not bring that file back', async () => {
    const dir = join(base, 'cache-4');
    const warnings: string[] = [];
    const cache = createDepCache({ dir, capBytes: 1024 ** 3, warn: () => undefined, now: Date.now });
    const first = await job();
    const r = await runSetup({ ...deps(first, cache), warn: (m) => warnings.push(m) }, 'npm ci && echo built > built.txt');
    expect(r).toEqual(expect.objectContaining({ exitCode: 0, cache: { result: 'miss', bytes: 0 } }));
    expect(warnings).toEqual([expect.stringContaining('setup also wrote built.txt')]);
    expect(readdirSync(dir).flatMap((scope) => readdirSync(join(dir, scope)))).toEqual([]);
  });

  it('a failed setup stores nothing, and the next job installs', async () => {
    const dir = join(base, 'cache-3');
    const cache = createDepCache({ dir, capBytes: 1024 ** 3, warn: () => undefined, now: Date.now });
    const failing = await job();
    const failed = await runSetup(deps(failing, cache), 'npm ci && exit 3');
    expect(failed).toEqual(expect.objectContaining({ exitCode: 3, cache: { result: 'miss', bytes: 0 } }));
    expect(setupSummary('npm ci && exit 3', failed)).toMatch(/ · exit 3 · \d+\.\d s$/);
    expect(existsSync(join(failing.root, 'node_modules/dep-a'))).toBe(true);
    expect(readdirSync(dir).flatMap((scope) => readdirSync(join(dir, scope)))).toEqual([]);
    const next = await job();
    expect((await runSetup(deps(next, cache), SETUP)).cache?.result).toBe('stored');
  });
});

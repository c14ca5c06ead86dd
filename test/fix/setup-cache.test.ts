import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareManagerCache } from '../../src/fix/manager-cache.js';
import { dependencyState, runSetup, setupSummary, type SetupDeps } from '../../src/fix/setup-phase.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import type { JobSandbox, Sandbox } from '../../src/sandbox/types.js';
import { runProcess } from '../../src/util/run-process.js';
import { createDepCache, type DepCache } from '../../src/workspace/dep-cache.js';
import type { DepCacheScope } from '../../src/workspace/dep-cache-scope.js';
import { addWorktree } from '../../src/workspace/worktree.js';
import { git } from '../support/git.js';
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
  packages: { '': { name: 'r', version: '1.0.0', dependencies: PACKAGE.dependencies }, 'node_modules/dep-a': { version: '1.0.0', resolved: 'file:vendor/dep-a-1.0.0.tgz', hasInstallScript: true } },
};

beforeAll(async () => {
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
  base = temp.make('gf-setup-cache-');
  chmodSync(base, 0o755);
  const src = join(base, 'pkg');
  mkdirSync(join(src, 'package'), { recursive: true });
  // dep-a has an install script (a harmless one here): what it runs is in the tarball, not in any key input.
  writeFileSync(join(src, 'package/package.json'), '{"name":"dep-a","version":"1.0.0","main":"index.js","scripts":{"postinstall":"true"}}\n');
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

const MAIN: DepCacheScope = { repo: 'repo-7', ref: 'refs/heads/main', defaultRef: 'refs/heads/main' };
const PR: DepCacheScope = { ...MAIN, ref: 'refs/pull/7/head' };

function deps(j: Job, cache: DepCache, managerCache?: SetupDeps['managerCache'], scope = MAIN): SetupDeps {
  return { workspace: j, sandbox: j.runner, timeoutMs: 120_000, cache: { cache, scope, uidScheme: 'test', owner: j.runner.owner }, ...(managerCache ? { managerCache } : {}) };
}

/** Every entry of a cache directory (`<repo>/<ref>/<key>`), interrupted stores left out. */
function entries(dir: string): string[] {
  const list = (path: string) => (existsSync(path) ? readdirSync(path) : []);
  return list(dir).flatMap((repo) => list(join(dir, repo)).flatMap((ref) => list(join(dir, repo, ref)).filter((n) => !n.startsWith('.tmp-'))));
}

const SETUP = 'npm ci && touch setup-ran';

describe('setup with the dependency cache', () => {
  it('a second job on the same lockfile restores node_modules, skips the install, and its tests pass', async () => {
    const dir = join(base, 'cache-1');
    const cache = createDepCache({ dir, capBytes: 1024 ** 3, warn: (m) => { throw new Error(m); }, now: Date.now });
    const first = await job();
    const managerCache = await prepareManagerCache(join(base, 'package-cache'), MAIN, first.runner.owner);
    expect(managerCache).toBeDefined();

    const installed = await runSetup(deps(first, cache, managerCache), SETUP);
    expect(installed).toEqual(expect.objectContaining({ exitCode: 0, cache: { result: 'stored', bytes: expect.any(Number) } }));
    expect(setupSummary(SETUP, installed)).toMatch(/ · installed \(\d+\.\d s\), cached$/);
    expect(existsSync(join(first.root, 'setup-ran'))).toBe(true);
    // npm's own cache went to the host-decided, read-write bind, not the sandbox's throwaway HOME.
    expect(readdirSync(join(managerCache!.bind.source, 'npm'))).toContain('_cacache');

    const second = await job();
    const restored = await runSetup(deps(second, cache), SETUP);
    // Another job, another uid (as root): the restored directories are that job's, not the first's;
    // its files are the entry's own, greenfix's, which no job may write (dep-cache-restore.ts).
    const uid = second.runner.owner?.uid ?? process.getuid?.();
    expect(statSync(join(second.root, 'node_modules/dep-a/index.js')).uid).toBe(process.getuid?.());
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
    expect(entries(dir)).toEqual([]);
  });

  it('a failed setup stores nothing, and the next job installs', async () => {
    const dir = join(base, 'cache-3');
    const cache = createDepCache({ dir, capBytes: 1024 ** 3, warn: () => undefined, now: Date.now });
    const failing = await job();
    const failed = await runSetup(deps(failing, cache), 'npm ci && exit 3');
    expect(failed).toEqual(expect.objectContaining({ exitCode: 3, cache: { result: 'miss', bytes: 0 } }));
    expect(setupSummary('npm ci && exit 3', failed)).toMatch(/ · exit 3 · \d+\.\d s$/);
    expect(existsSync(join(failing.root, 'node_modules/dep-a'))).toBe(true);
    expect(entries(dir)).toEqual([]);
    const next = await job();
    expect((await runSetup(deps(next, cache), SETUP)).cache?.result).toBe('stored');
  });

  it("a pull request's postinstall plants a shim and its install is stored: a job on the default branch does not restore it and installs for real", async () => {
    const dir = join(base, 'cache-pr');
    const cache = createDepCache({ dir, capBytes: 1024 ** 3, warn: () => undefined, now: Date.now });
    // The branch changes the vendored tarball only: its postinstall is part of no key input.
    const src = join(base, 'pkg-poisoned');
    mkdirSync(join(src, 'package'), { recursive: true });
    const postinstall = "mkdir -p ../.bin && printf '#!/bin/sh\\necho ok\\n' > ../.bin/test-runner && chmod +x ../.bin/test-runner";
    writeFileSync(join(src, 'package/package.json'), `${JSON.stringify({ name: 'dep-a', version: '1.0.0', main: 'index.js', scripts: { postinstall } })}\n`);
    writeFileSync(join(src, 'package/index.js'), 'exports.twice = (n) => n * 2;\n');
    const branch = join(base, 'pr-branch');
    git(repo, 'worktree', 'add', '-q', '-b', 'pr', branch, 'main');
    const tar = await runProcess({ argv: ['tar', '-czf', join(branch, 'vendor/dep-a-1.0.0.tgz'), '-C', src, 'package'], cwd: base, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000 });
    expect(tar.exitCode).toBe(0);
    git(branch, 'commit', '-q', '-am', 'vendor: dep-a');

    const pr = await job('pr');
    const poisoned = await runSetup(deps(pr, cache, undefined, PR), SETUP);
    expect(poisoned.cache?.result).toBe('stored');
    expect(existsSync(join(pr.root, 'node_modules/.bin/test-runner'))).toBe(true);

    const main = await job('main');
    const installed = await runSetup(deps(main, cache, undefined, MAIN), SETUP);
    expect(installed.cache?.result).toBe('stored');
    expect(existsSync(join(main.root, 'setup-ran'))).toBe(true);
    expect(existsSync(join(main.root, 'node_modules/.bin/test-runner'))).toBe(false);
    // What each setup left, kept for the clean room, is the dependency state its baseline runs against: they differ.
    const poisonedState = await pr.keepSetupState(pr.runner.owner);
    const installedState = await main.keepSetupState(main.runner.owner);
    expect(installedState.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(poisonedState.digest).not.toBe(installedState.digest);
    // The pull request's next job still gets its own entry.
    const prAgain = await job('pr');
    const hit = await runSetup(deps(prAgain, cache, undefined, PR), SETUP);
    expect(hit.cache?.result).toBe('hit');
    const hitState = await prAgain.keepSetupState(prAgain.runner.owner);
    expect(hitState.digest).not.toBe(installedState.digest);
    expect(dependencyState({ setup: { ...hit, dependencyState: hitState }, baseCommit: 'c', createdAt: 1 })).toBe(hitState.digest);
  });

  it('an entry tampered with on disk is dropped and the setup runs for real', async () => {
    const dir = join(base, 'cache-tamper');
    const warnings: string[] = [];
    const cache = createDepCache({ dir, capBytes: 1024 ** 3, warn: (m) => warnings.push(m), now: Date.now });
    expect((await runSetup(deps(await job(), cache), SETUP)).cache?.result).toBe('stored');
    const [repoDir] = readdirSync(dir).filter((n) => n === MAIN.repo);
    const refDir = join(dir, repoDir!, readdirSync(join(dir, repoDir!))[0]!);
    const entry = join(refDir, readdirSync(refDir)[0]!);
    writeFileSync(join(entry, 'node_modules/dep-a/index.js'), 'exports.twice = () => 4;\n');
    const next = await job();
    const r = await runSetup(deps(next, cache), SETUP);
    expect(warnings).toEqual([expect.stringContaining('node_modules/dep-a/index.js')]);
    expect(existsSync(join(next.root, 'setup-ran'))).toBe(true);
    expect(r.cache?.result).toBe('stored');
  });
});

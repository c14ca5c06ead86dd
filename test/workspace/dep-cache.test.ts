import { chmodSync, existsSync, lchownSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from '../../src/util/run-process.js';
import { createDepCache, type DepCache } from '../../src/workspace/dep-cache.js';
import { treeManifest } from '../../src/workspace/tree-manifest.js';
import { dependencyCacheKey, type CacheKey, type ToolVersions } from '../../src/workspace/dep-cache-key.js';
import { refDirName, type DepCacheScope } from '../../src/workspace/dep-cache-scope.js';
import { sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const isRoot = process.getuid?.() === 0;
/** Who the sandbox runs as here (65534 under root): the worktree's owner. */
const owner = sandboxFileOwner();
const TOOLS: ToolVersions = { version: async (tool) => `${tool}-1.0.0`, platform: 'linux-x64-test' };
const LOCK = '{"lockfileVersion":3,"packages":{}}\n';
const MAIN = 'refs/heads/main';
const MAIN_DIR = refDirName(MAIN);
/** A job on the default branch of `repo`. */
const onMain = (repo: string): DepCacheScope => ({ repo, ref: MAIN, defaultRef: MAIN });
/** A job on another ref of `repo` (a pull request's head). */
const onRef = (repo: string, ref: string): DepCacheScope => ({ repo, ref, defaultRef: MAIN });

function cacheIn(dir: string, capBytes = 1024 ** 3, warnings: string[] = [], events: string[] = []): DepCache {
  return createDepCache({ dir, capBytes, warn: (m) => warnings.push(m), now: Date.now, record: (e) => events.push(e) });
}

/** A worktree as setup leaves it: a lockfile and an installed node_modules, owned by the sandbox uid. */
async function installed(files: Record<string, string> = { 'node_modules/dep-a/index.js': 'exports.a = 1;\n' }, lock = LOCK): Promise<string> {
  const root = temp.make('gf-cache-wt-');
  chmodSync(root, 0o755);
  writeFileSync(join(root, 'package-lock.json'), lock);
  writeFileSync(join(root, 'package.json'), '{"name":"r"}\n');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  await prepareWorkspaceOwnership(root, owner);
  return root;
}

/** A fresh worktree (same lockfile), as a second job gets it. */
async function fresh(lock = LOCK): Promise<string> {
  return installed({}, lock);
}

/** Runs `command` in `cwd` as the job's uid (the sandbox's; this process's own when not root). */
async function asOwner(command: string, cwd: string): Promise<{ exitCode: number | null }> {
  const argv = owner ? ['setpriv', `--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--clear-groups', 'sh', '-c', command] : ['sh', '-c', command];
  return runProcess({ argv, cwd, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 10_000 });
}

/** Writes an entry's manifest and meta again for what is on disk now (an entry as an older greenfix stored it). */
function rewriteManifest(entry: string): void {
  const manifest = treeManifest(entry, ['node_modules']);
  writeFileSync(join(entry, 'manifest'), manifest.text);
  const meta = JSON.parse(readFileSync(join(entry, 'meta.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(entry, 'meta.json'), JSON.stringify({ ...meta, manifest: manifest.digest }));
}

async function keyOf(root: string, setup = 'npm ci'): Promise<CacheKey> {
  const key = await dependencyCacheKey(root, setup, TOOLS, 'test');
  if (!key) throw new Error('expected a key');
  return key;
}

describe('dependency cache key', () => {
  it('changes with the lockfile, the setup command, the tool versions, the platform and the uid scheme', async () => {
    const a = await keyOf(await fresh());
    expect((await keyOf(await fresh())).key).toBe(a.key);
    expect((await keyOf(await fresh('{"lockfileVersion":3,"packages":{"x":{}}}\n'))).key).not.toBe(a.key);
    expect((await keyOf(await fresh(), 'npm ci --ignore-scripts')).key).not.toBe(a.key);
    const root = await fresh();
    expect((await dependencyCacheKey(root, 'npm ci', { ...TOOLS, version: async (t) => `${t}-2.0.0` }, 'test'))?.key).not.toBe(a.key);
    expect((await dependencyCacheKey(root, 'npm ci', { ...TOOLS, platform: 'linux-arm64' }, 'test'))?.key).not.toBe(a.key);
    expect((await dependencyCacheKey(root, 'npm ci', TOOLS, 'per-job'))?.key).not.toBe(a.key);
    expect(a.dirs).toEqual(['node_modules']);
    // An environment image's digest keys its installs apart; without one the key is as it always was.
    const inImage = await dependencyCacheKey(root, 'npm ci', TOOLS, 'test', `sha256:${'1'.repeat(64)}`);
    expect(inImage?.key).not.toBe(a.key);
    expect(inImage?.parts.image).toBe(`sha256:${'1'.repeat(64)}`);
    expect((await dependencyCacheKey(root, 'npm ci', TOOLS, 'test', `sha256:${'2'.repeat(64)}`))?.key).not.toBe(inImage?.key);
    expect((await dependencyCacheKey(root, 'npm ci', TOOLS, 'test', null))?.key).toBe(a.key);
  });

  it('is null without a lockfile, or when the lockfile is a symlink the host will not follow', async () => {
    const root = temp.make('gf-cache-nolock-');
    writeFileSync(join(root, 'package.json'), '{}');
    expect(await dependencyCacheKey(root, 'npm install', TOOLS, 'test')).toBeNull();
    symlinkSync('/etc/hostname', join(root, 'package-lock.json'));
    expect(await dependencyCacheKey(root, 'npm ci', TOOLS, 'test')).toBeNull();
  });

  it('is null for a monorepo (workspaces): its packages\' own node_modules would not be cached', async () => {
    const root = await fresh();
    writeFileSync(join(root, 'package.json'), '{"name":"mono","workspaces":["packages/*"]}\n');
    expect(await dependencyCacheKey(root, 'npm ci', TOOLS, 'test')).toBeNull();
  });
});

describe('dependency cache', () => {
  it('restores a stored entry (hard links when the job has a uid of its own, else a copy), and survives a restart', async () => {
    const dir = temp.make('gf-cache-');
    const events: string[] = [];
    const first = await installed();
    const key = await keyOf(first);
    const stored = await cacheIn(dir, undefined, [], events).store(onMain('repo-1'), key, first, owner);
    expect(stored).toEqual(expect.objectContaining({ files: 1, bytes: 'exports.a = 1;\n'.length }));
    const cached = join(dir, 'repo-1', MAIN_DIR, key.key, 'node_modules/dep-a/index.js');
    expect(statSync(cached).mode & 0o022).toBe(0);

    // A new process: a new cache object over the same directory.
    const second = await fresh();
    const hit = await cacheIn(dir, undefined, [], events).restore(onMain('repo-1'), key, second, owner);
    expect(hit).toEqual(expect.objectContaining({ files: 1 }));
    const restored = join(second, 'node_modules/dep-a/index.js');
    expect(readFileSync(restored, 'utf8')).toBe('exports.a = 1;\n');
    if (owner) {
      // The job's uid is not greenfix's: the entry's own inode, still greenfix's, in the job's directory.
      expect(statSync(restored).ino).toBe(statSync(cached).ino);
      expect(statSync(restored).uid).toBe(process.getuid?.());
      expect(statSync(join(second, 'node_modules/dep-a')).uid).toBe(owner.uid);
    }
    // Commands that run as greenfix's own uid could write through a link: a copy.
    const third = await fresh();
    await cacheIn(dir, undefined, [], events).restore(onMain('repo-1'), key, third, null);
    const copied = join(third, 'node_modules/dep-a/index.js');
    expect(statSync(copied).ino).not.toBe(statSync(cached).ino);
    expect(statSync(copied).nlink).toBe(1);
    expect(readFileSync(copied, 'utf8')).toBe('exports.a = 1;\n');
    expect(events).toEqual(['stored', 'hit', 'hit']);
  });

  it('an entry stored before links (a file with group or other write) is restored by copy', async () => {
    const dir = temp.make('gf-cache-');
    const first = await installed();
    const key = await keyOf(first);
    await cacheIn(dir).store(onMain('r'), key, first, owner);
    const cached = join(dir, 'r', MAIN_DIR, key.key, 'node_modules/dep-a/index.js');
    // As an older greenfix stored it: the mode kept, and the manifest written with it.
    chmodSync(cached, 0o666);
    rewriteManifest(join(dir, 'r', MAIN_DIR, key.key));
    const second = await fresh();
    expect(await cacheIn(dir).restore(onMain('r'), key, second, owner)).not.toBeNull();
    const restored = statSync(join(second, 'node_modules/dep-a/index.js'));
    expect(restored.ino).not.toBe(statSync(cached).ino);
    expect(restored.uid).toBe(owner?.uid ?? process.getuid?.());
  });

  it('misses for another repository and for another key', async () => {
    const dir = temp.make('gf-cache-');
    const cache = cacheIn(dir);
    const first = await installed();
    await cache.store(onMain('repo-1'), await keyOf(first), first, owner);
    const other = await fresh();
    expect(await cache.restore(onMain('repo-2'), await keyOf(other), other, owner)).toBeNull();
    const changed = await fresh('{"lockfileVersion":3,"packages":{"y":{}}}\n');
    expect(await cache.restore(onMain('repo-1'), await keyOf(changed), changed, owner)).toBeNull();
    expect(existsSync(join(changed, 'node_modules'))).toBe(false);
  });

  it('a job that changes its node_modules does not change the cache for the next job', async () => {
    const dir = temp.make('gf-cache-');
    const cache = cacheIn(dir);
    const first = await installed();
    const key = await keyOf(first);
    await cache.store(onMain('r'), key, first, owner);
    writeFileSync(join(first, 'node_modules/dep-a/index.js'), 'poisoned after the store');
    const second = await fresh();
    await cache.restore(onMain('r'), key, second, owner);
    // What the job's commands do, as the job's uid (a linked file is greenfix's: not writable).
    const job = await asOwner('echo new > node_modules/dep-a/extra.js && echo poisoned >> node_modules/dep-a/index.js', second);
    expect(job.exitCode === 0).toBe(owner === null);
    const third = await fresh();
    await cache.restore(onMain('r'), key, third, owner);
    expect(readFileSync(join(third, 'node_modules/dep-a/index.js'), 'utf8')).toBe('exports.a = 1;\n');
    expect(existsSync(join(third, 'node_modules/dep-a/extra.js'))).toBe(false);
  });

  it('two jobs storing the same key at once leave one entry and no temporary copy', async () => {
    const dir = temp.make('gf-cache-');
    const cache = cacheIn(dir);
    const a = await installed();
    const b = await installed();
    const key = await keyOf(a);
    const results = await Promise.all([cache.store(onMain('r'), key, a, owner), cacheIn(dir).store(onMain('r'), key, b, owner)]);
    expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(readdirSync(join(dir, 'r', MAIN_DIR))).toEqual([key.key]);
  });

  it('drops a corrupt entry with a warning, and then stores again', async () => {
    const dir = temp.make('gf-cache-');
    const warnings: string[] = [];
    const cache = cacheIn(dir, undefined, warnings);
    const first = await installed();
    const key = await keyOf(first);
    await cache.store(onMain('r'), key, first, owner);
    writeFileSync(join(dir, 'r', MAIN_DIR, key.key, 'meta.json'), '{"version":1, truncated');
    const second = await fresh();
    expect(await cache.restore(onMain('r'), key, second, owner)).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('dropped the corrupt entry')]);
    expect(existsSync(join(dir, 'r', MAIN_DIR, key.key))).toBe(false);
    expect(existsSync(join(second, 'node_modules'))).toBe(false);
    expect(await cache.store(onMain('r'), key, first, owner)).not.toBeNull();
  });

  it('eviction keeps the most recently used entries under the cap', async () => {
    const dir = temp.make('gf-cache-');
    const content = 'x'.repeat(1000);
    const cache = cacheIn(dir, 2500);
    const keys: CacheKey[] = [];
    for (let i = 0; i < 4; i++) {
      const root = await installed({ 'node_modules/p/index.js': content }, `{"lockfileVersion":3,"n":${i}}\n`);
      const key = await keyOf(root);
      keys.push(key);
      await cache.store(onMain('r'), key, root, owner);
      // Last use is the entry's mtime: make the order explicit, oldest first.
      const t = new Date(Date.now() - (10 - i) * 60_000);
      if (existsSync(join(dir, 'r', MAIN_DIR, key.key))) utimesSync(join(dir, 'r', MAIN_DIR, key.key), t, t);
    }
    const summary = await cache.sweep();
    expect(summary.keptBytes).toBeLessThanOrEqual(2500);
    expect(readdirSync(join(dir, 'r', MAIN_DIR)).sort()).toEqual([keys[2]!.key, keys[3]!.key].sort());
  });

  it('does not restore into a worktree that already has node_modules (a committed symlink is not written through)', async () => {
    const dir = temp.make('gf-cache-');
    const cache = cacheIn(dir, undefined, []);
    const first = await installed();
    const key = await keyOf(first);
    await cache.store(onMain('r'), key, first, owner);
    const target = temp.make('gf-cache-victim-');
    const second = await fresh();
    symlinkSync(target, join(second, 'node_modules'));
    expect(await cache.restore(onMain('r'), key, second, owner)).toBeNull();
    expect(readdirSync(target)).toEqual([]);
  });
});

describe('dependency cache: what the sandbox left in node_modules is hostile', () => {
  it('keeps a symlink as a symlink: the host never reads what it points at', async () => {
    const dir = temp.make('gf-cache-');
    const secret = join(temp.make('gf-cache-secret-'), 'secret.txt');
    writeFileSync(secret, 'host secret');
    const first = await installed();
    symlinkSync(secret, join(first, 'node_modules/dep-a/leak.txt'));
    if (owner) lchownSync(join(first, 'node_modules/dep-a/leak.txt'), owner.uid, owner.gid);
    const key = await keyOf(first);
    await cacheIn(dir).store(onMain('r'), key, first, owner);
    const cached = join(dir, 'r', MAIN_DIR, key.key, 'node_modules/dep-a/leak.txt');
    expect(lstatSync(cached).isSymbolicLink()).toBe(true);
    expect(readlinkSync(cached)).toBe(secret);
  });

  it('stores nothing when node_modules itself is a symlink', async () => {
    const dir = temp.make('gf-cache-');
    const elsewhere = await installed();
    const first = await fresh();
    symlinkSync(join(elsewhere, 'node_modules'), join(first, 'node_modules'));
    if (owner) lchownSync(join(first, 'node_modules'), owner.uid, owner.gid);
    const warnings: string[] = [];
    expect(await cacheIn(dir, undefined, warnings).store(onMain('r'), await keyOf(first), first, owner)).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('not a directory')]);
    expect(readdirSync(join(dir, 'r', MAIN_DIR))).toEqual([]);
  });

  it('refuses a FIFO (without blocking on it) and stores nothing', async () => {
    const dir = temp.make('gf-cache-');
    const first = await installed();
    const fifo = join(first, 'node_modules/dep-a/pipe');
    const r = await runProcess({ argv: ['mkfifo', fifo], cwd: first, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 10_000 });
    expect(r.exitCode).toBe(0);
    if (owner) lchownSync(fifo, owner.uid, owner.gid);
    const warnings: string[] = [];
    expect(await cacheIn(dir, undefined, warnings).store(onMain('r'), await keyOf(first), first, owner)).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('FIFO')]);
    expect(readdirSync(join(dir, 'r', MAIN_DIR))).toEqual([]);
  });

  (isRoot ? it : it.skip)('refuses a file the sandbox uid does not own (a hard link to a root file)', async () => {
    const dir = temp.make('gf-cache-');
    const first = await installed();
    writeFileSync(join(first, 'node_modules/dep-a/root-owned'), 'root only', { mode: 0o600 });
    const warnings: string[] = [];
    expect(await cacheIn(dir, undefined, warnings).store(onMain('r'), await keyOf(first), first, owner)).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('belongs to uid 0')]);
  });

  it('drops setuid and setgid bits', async () => {
    const dir = temp.make('gf-cache-');
    const first = await installed({ 'node_modules/dep-a/bin.sh': '#!/bin/sh\n' });
    chmodSync(join(first, 'node_modules/dep-a/bin.sh'), 0o6755);
    const key = await keyOf(first);
    await cacheIn(dir).store(onMain('r'), key, first, owner);
    expect(statSync(join(dir, 'r', MAIN_DIR, key.key, 'node_modules/dep-a/bin.sh')).mode & 0o7777).toBe(0o755);
  });
});

describe('dependency cache scopes, as GitHub Actions scopes caches', () => {
  const PR = 'refs/pull/7/head';

  it("an entry stored on a pull request's ref is never restored on the default branch or another ref, only on its own", async () => {
    const dir = temp.make('gf-cache-');
    const cache = cacheIn(dir);
    // The branch's postinstall planted a shim: not part of the key, so the key is main's.
    const poisoned = await installed({ 'node_modules/.bin/jest': '#!/bin/sh\necho ok\n' });
    const key = await keyOf(poisoned);
    expect(await cache.store(onRef('r', PR), key, poisoned, owner)).not.toBeNull();
    const onDefault = await fresh();
    expect(await cache.restore(onMain('r'), key, onDefault, owner)).toBeNull();
    expect(existsSync(join(onDefault, 'node_modules'))).toBe(false);
    const otherPr = await fresh();
    expect(await cache.restore(onRef('r', 'refs/pull/8/head'), key, otherPr, owner)).toBeNull();
    const samePr = await fresh();
    expect(await cache.restore(onRef('r', PR), key, samePr, owner)).not.toBeNull();
    expect(readFileSync(join(samePr, 'node_modules/.bin/jest'), 'utf8')).toContain('echo ok');
  });

  it("a job on another ref reads the default branch's entry when it has none of its own, and prefers its own", async () => {
    const dir = temp.make('gf-cache-');
    const cache = cacheIn(dir);
    const main = await installed({ 'node_modules/dep-a/index.js': 'main\n' });
    const key = await keyOf(main);
    await cache.store(onMain('r'), key, main, owner);
    const pr = await fresh();
    expect(await cache.restore(onRef('r', PR), key, pr, owner)).not.toBeNull();
    expect(readFileSync(join(pr, 'node_modules/dep-a/index.js'), 'utf8')).toBe('main\n');
    const own = await installed({ 'node_modules/dep-a/index.js': 'pr\n' });
    await cache.store(onRef('r', PR), key, own, owner);
    const again = await fresh();
    await cache.restore(onRef('r', PR), key, again, owner);
    expect(readFileSync(join(again, 'node_modules/dep-a/index.js'), 'utf8')).toBe('pr\n');
  });

  it('the sweep drops entries of the layout before refs (stored unscoped, they may come from any branch)', async () => {
    const dir = temp.make('gf-cache-');
    const first = await installed();
    const key = await keyOf(first);
    await cacheIn(dir).store(onMain('r'), key, first, owner);
    const old = join(dir, 'r', key.key);
    mkdirSync(join(old, 'node_modules'), { recursive: true });
    writeFileSync(join(old, 'meta.json'), '{"version":1}');
    await cacheIn(dir).sweep();
    expect(readdirSync(join(dir, 'r'))).toEqual([MAIN_DIR]);
  });
});

describe('dependency cache integrity manifest', () => {
  it('a stored file changed on disk: not restored, the entry dropped with a warning naming the file', async () => {
    const dir = temp.make('gf-cache-');
    const warnings: string[] = [];
    const cache = cacheIn(dir, undefined, warnings);
    const first = await installed({ 'node_modules/dep-a/index.js': 'exports.a = 1;\n', 'node_modules/.bin/jest': '#!/bin/sh\nexec node jest.js\n' });
    const key = await keyOf(first);
    await cache.store(onMain('r'), key, first, owner);
    expect(readFileSync(join(dir, 'r', MAIN_DIR, key.key, 'manifest'), 'utf8')).toContain('"node_modules/.bin/jest"');
    writeFileSync(join(dir, 'r', MAIN_DIR, key.key, 'node_modules/.bin/jest'), '#!/bin/sh\necho ok\n');
    const second = await fresh();
    expect(await cache.restore(onMain('r'), key, second, owner)).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/differ from the manifest.*node_modules\/\.bin\/jest/)]);
    expect(existsSync(join(second, 'node_modules'))).toBe(false);
    expect(existsSync(join(dir, 'r', MAIN_DIR, key.key))).toBe(false);
  });

  it('a file added to, or a mode changed in, a stored entry is a mismatch too', async () => {
    const dir = temp.make('gf-cache-');
    const cache = cacheIn(dir);
    const first = await installed();
    const key = await keyOf(first);
    await cache.store(onMain('r'), key, first, owner);
    writeFileSync(join(dir, 'r', MAIN_DIR, key.key, 'node_modules/extra.js'), 'planted');
    expect(await cache.restore(onMain('r'), key, await fresh(), owner)).toBeNull();
    await cache.store(onMain('r'), key, first, owner);
    chmodSync(join(dir, 'r', MAIN_DIR, key.key, 'node_modules/dep-a/index.js'), 0o755);
    expect(await cache.restore(onMain('r'), key, await fresh(), owner)).toBeNull();
    // Stored again untouched, it restores, and tells its manifest digest.
    await cache.store(onMain('r'), key, first, owner);
    expect(await cache.restore(onMain('r'), key, await fresh(), owner)).toEqual(expect.objectContaining({ manifest: expect.stringMatching(/^[0-9a-f]{64}$/) }));
  });
});

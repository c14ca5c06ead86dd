import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { FileOwner } from '../sandbox/ownership.js';
import { DEFAULT_SANDBOX_PATH } from '../sandbox/environment.js';
import { readRegularText, RegularFileError } from '../util/regular-file.js';
import { runProcess } from '../util/run-process.js';
import type { CacheKey, ToolVersions } from './dep-cache-key.js';
import { refDirName, refsToRead, type DepCacheScope } from './dep-cache-scope.js';
import { TreeCopyError } from './safe-tree-copy.js';
import { copyTreeOffLoop, removeTreeOffLoop, treeManifestOffLoop } from './tree-work.js';
import { placeEntry } from './dep-cache-restore.js';

/** A `.tmp-*` entry older than this is an interrupted store: the sweep removes it. */
const STALE_TMP_MS = 3_600_000;

const MetaSchema = z.strictObject({
  version: z.literal(2),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  /** The ref whose job stored it (dep-cache-scope.ts). */
  ref: z.string(),
  /** sha256 of the entry's `manifest` file (tree-manifest.ts), checked on every restore. */
  manifest: z.string().regex(/^[0-9a-f]{64}$/),
  manager: z.string(),
  dirs: z.array(z.string().regex(/^[A-Za-z0-9._-]+$/)).min(1),
  parts: z.record(z.string(), z.string()),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  createdAt: z.number(),
});
type Meta = z.infer<typeof MetaSchema>;

export interface DepCacheOptions {
  /** `<workdir>/dep-cache`: host-owned, never bound into a sandbox. */
  dir: string;
  capBytes: number;
  warn(message: string): void;
  now(): number;
  /** Hears each lookup (hit or miss) and each store, with the bytes moved: for /metrics. */
  record?: (event: 'hit' | 'miss' | 'stored', bytes: number) => void;
}

export interface CacheUse {
  bytes: number;
  files: number;
  durationMs: number;
  /** The manifest digest of what was restored or stored (the dependency state a baseline ran against). */
  manifest: string;
}

export interface SweepSummary {
  removed: number;
  removedBytes: number;
  kept: number;
  keptBytes: number;
}

export interface DepCache {
  /** The host's tool versions for keys (memoised: asked once per process and tool). */
  readonly tools: ToolVersions;
  /**
   * Puts the entry's directories into a fresh `worktree` for `owner` (linked or copied:
   * dep-cache-restore.ts), from the job's own ref or else the default branch's; null on a miss or
   * when the entry does not match its manifest.
   */
  restore(scope: DepCacheScope, key: CacheKey, worktree: string, owner: FileOwner | null): Promise<CacheUse | null>;
  /** Keeps the worktree's installed directories after a successful setup, for the job's ref; null when not stored. */
  store(scope: DepCacheScope, key: CacheKey, worktree: string, owner: FileOwner | null): Promise<CacheUse | null>;
  /** Drops corrupt entries and interrupted stores, then the least recently used above the cap. */
  sweep(): Promise<SweepSummary>;
}

/**
 * The dependency cache of a workdir: `<dir>/<repo>/ref-<hash>/<key>/{meta.json, manifest,
 * node_modules/}` per repository, ref (dep-cache-scope.ts: a job reads its own ref's entries and
 * the default branch's) and key (dep-cache-key.ts). Stored only from a finished, successful setup,
 * copied from the worktree without following anything (safe-tree-copy.ts) into `.tmp-*`, then
 * renamed: an entry is complete or absent, and of two jobs storing at once the second rename fails
 * and its copy is dropped. Restored by hard links to files no job may write when the job runs as a
 * uid of its own, else by copy (dep-cache-restore.ts), so what a job does to its node_modules never
 * reaches the cache; checked against the manifest written at store time (by shape for links, by
 * content for copies): a mismatch drops the entry. Last use = the entry directory's mtime.
 */
export function createDepCache(options: DepCacheOptions): DepCache {
  const versions = new Map<string, Promise<string>>();
  let platform: string | null = null;
  const tools: ToolVersions = {
    version: (tool) => {
      let v = versions.get(tool);
      if (!v) versions.set(tool, (v = probeVersion(tool, options.dir)));
      return v;
    },
    get platform() {
      platform ??= hostPlatform();
      return platform;
    },
  };
  const refDir = (repo: string, ref: string) => join(options.dir, scopeName(repo), refDirName(ref));

  const restore: DepCache['restore'] = async (scope, key, worktree, owner) => {
    const hit = await restoreEntry(scope, key, worktree, owner);
    options.record?.(hit ? 'hit' : 'miss', hit?.bytes ?? 0);
    return hit;
  };
  const restoreEntry: DepCache['restore'] = async (scope, key, worktree, owner) => {
    for (const ref of refsToRead(scope)) {
      const hit = await restoreFrom(join(refDir(scope.repo, ref), key.key), ref, key, worktree, owner);
      if (hit !== 'absent') return hit;
    }
    return null;
  };
  /** 'absent': look further (the default branch's entry); null: a miss that ends the lookup. */
  const restoreFrom = async (dir: string, ref: string, key: CacheKey, worktree: string, owner: FileOwner | null): Promise<CacheUse | null | 'absent'> => {
    const started = performance.now();
    const meta = readMeta(dir, options.warn);
    if (!meta || meta.key !== key.key) return 'absent';
    if (meta.ref !== ref) {
      options.warn(`dependency cache: dropped ${dir}: stored for ${meta.ref}, found under ${ref}`);
      rmSync(dir, { recursive: true, force: true });
      return 'absent';
    }
    for (const name of meta.dirs) {
      if (exists(join(worktree, name))) {
        options.warn(`dependency cache: ${name} is already in the worktree (committed?): not restored, setup runs`);
        return null;
      }
    }
    const placed = await placeEntry({ dir, dirs: meta.dirs, digest: meta.manifest, worktree, owner, warn: options.warn });
    if (placed === 'bad') await removeTreeOffLoop(dir);
    if (placed === 'bad' || placed === 'failed') return null;
    const now = new Date(options.now());
    utimesSync(dir, now, now);
    return { bytes: meta.bytes, files: meta.files, durationMs: performance.now() - started, manifest: meta.manifest };
  };

  const store: DepCache['store'] = async (scope, key, worktree, owner) => {
    const started = performance.now();
    const parent = refDir(scope.repo, scope.ref);
    const dir = join(parent, key.key);
    if (exists(dir)) return null;
    if (!key.dirs.every((name) => exists(join(worktree, name)))) return null;
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    const tmp = join(parent, `.tmp-${key.key}-${randomBytes(6).toString('hex')}`);
    mkdirSync(tmp, { mode: 0o700 });
    try {
      const total = { files: 0, bytes: 0 };
      for (const name of key.dirs) {
        // No group or other write: the entry's files are linked into jobs (dep-cache-restore.ts).
        const s = await copyTreeOffLoop(worktree, tmp, name, { expectOwner: owner ? owner.uid : (process.getuid?.() ?? null), maxBytes: options.capBytes - total.bytes, fileMode: 0o755 });
        total.files += s.files;
        total.bytes += s.bytes;
      }
      const manifest = await treeManifestOffLoop(tmp, key.dirs);
      writeFileSync(join(tmp, 'manifest'), manifest.text, { mode: 0o600, flag: 'wx' });
      const meta: Meta = { version: 2, key: key.key, ref: scope.ref, manifest: manifest.digest, manager: key.manager, dirs: [...key.dirs], parts: key.parts, ...total, createdAt: options.now() };
      writeFileSync(join(tmp, 'meta.json'), JSON.stringify(meta), { mode: 0o600, flag: 'wx' });
      try {
        renameSync(tmp, dir);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') return null; // another job stored it first
        throw error;
      }
      options.record?.('stored', total.bytes);
      await sweep();
      return { ...total, durationMs: performance.now() - started, manifest: manifest.digest };
    } catch (error) {
      if (!(error instanceof TreeCopyError)) throw error;
      options.warn(`dependency cache: not stored: ${error.message}`);
      return null;
    } finally {
      await removeTreeOffLoop(tmp);
    }
  };

  const sweep: DepCache['sweep'] = async () => {
    const entries: { path: string; bytes: number; used: number }[] = [];
    const summary: SweepSummary = { removed: 0, removedBytes: 0, kept: 0, keptBytes: 0 };
    for (const repo of list(options.dir)) {
      for (const ref of list(join(options.dir, repo))) {
        // An entry of the layout before refs (`<repo>/<key>`): stored unscoped, so never restored.
        if (!ref.startsWith('ref-')) {
          rmSync(join(options.dir, repo, ref), { recursive: true, force: true });
          continue;
        }
        for (const name of list(join(options.dir, repo, ref))) {
          const path = join(options.dir, repo, ref, name);
          const used = lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
          if (name.startsWith('.tmp-')) {
            if (options.now() - used > STALE_TMP_MS) rmSync(path, { recursive: true, force: true });
            continue;
          }
          const meta = readMeta(path, options.warn);
          if (meta) entries.push({ path, bytes: meta.bytes, used });
        }
      }
    }
    entries.sort((a, b) => b.used - a.used);
    let total = 0;
    for (const entry of entries) {
      if (total + entry.bytes <= options.capBytes) {
        total += entry.bytes;
        summary.kept += 1;
        summary.keptBytes += entry.bytes;
        continue;
      }
      await removeTreeOffLoop(entry.path);
      summary.removed += 1;
      summary.removedBytes += entry.bytes;
    }
    return summary;
  };

  return { tools, restore, store, sweep };
}

/** The entry's metadata; a corrupt entry (unreadable meta, missing directory) is dropped with a warning. */
function readMeta(dir: string, warn: (message: string) => void): Meta | null {
  if (!exists(dir)) return null;
  let meta: Meta | null = null;
  try {
    const text = readRegularText(dir, 'meta.json', 1024 * 1024);
    const parsed = text === null ? null : MetaSchema.safeParse(JSON.parse(text));
    if (parsed?.success && parsed.data.dirs.every((name) => lstatSync(join(dir, name), { throwIfNoEntry: false })?.isDirectory())) meta = parsed.data;
  } catch (error) {
    if (!(error instanceof RegularFileError) && !(error instanceof SyntaxError)) throw error;
  }
  if (!meta) {
    warn(`dependency cache: dropped the corrupt entry ${dir}`);
    rmSync(dir, { recursive: true, force: true });
  }
  return meta;
}

/** A repository id or a hash of a path as one directory name. */
function scopeName(scope: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(scope) ? scope : createHash('sha256').update(scope).digest('hex').slice(0, 32);
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** `tool --version` run by the host in a directory of its own, with no config of the worktree's. */
async function probeVersion(tool: string, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const r = await runProcess({ argv: [tool, '--version'], cwd: dir, env: { PATH: DEFAULT_SANDBOX_PATH, HOME: dir }, timeoutMs: 30_000 }).catch(() => null);
  return r && r.exitCode === 0 ? r.stdout.trim() : 'unavailable';
}

function hostPlatform(): string {
  const header = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return `${process.platform}-${process.arch}-glibc${header?.header?.glibcVersionRuntime ?? 'none'}`;
}

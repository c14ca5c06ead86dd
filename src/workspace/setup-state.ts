import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { errorText } from '../util/error-text.js';
import { runIn, type RepoHandle } from './private-index.js';
import { notRealDirectory } from './real-directory.js';
import { TreeCopyError } from './safe-tree-copy.js';
import { copyTreeOffLoop, removeTreeOffLoop, treeManifestOffLoop } from './tree-work.js';

/**
 * The dependency state of a fix: what the setup step left in the worktree outside the base tree
 * (node_modules, a venv, build output, a lockfile it wrote), copied right after setup — before the
 * agent acts — into a host-owned directory the sandbox never sees (`<state dir>/setup-state`). The
 * clean room (clean-room.ts) restores it beside the tree under test, so what the model writes
 * outside the committed tree later (an ignored shim, a planted report) never reaches the verdict.
 */
export const SetupStateManifestSchema = z.strictObject({
  version: z.literal(1),
  /** Top-level paths kept, relative to the worktree ("node_modules", "packages/a/node_modules", "package-lock.json"). */
  roots: z.array(z.string()),
  /** Paths setup left that could not be kept (a FIFO, a foreign owner), with why. */
  refused: z.array(z.strictObject({ path: z.string(), reason: z.string() })),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** The kept tree's manifest digest (tree-manifest.ts: every entry's path, type, mode, size, content): the dependency state. */
  digest: z.string(),
});
export type SetupStateManifest = z.infer<typeof SetupStateManifestSchema>;

const MANIFEST = 'manifest.json';
const TREE = 'tree';
/** A copy larger than this is refused (the state is then what the tree alone gives). */
const MAX_BYTES = 64 * 1024 * 1024 * 1024;

/**
 * Every path in the worktree that the base tree does not have, collapsed to the top-most untracked
 * directory, ignored or not: a listing against a throwaway index of the base, never the worktree's.
 */
export async function untrackedRoots(repo: RepoHandle, baseCommit: string, indexFile: string, collapse = true): Promise<string[]> {
  await runIn(repo, ['read-tree', baseCommit], undefined, indexFile);
  try {
    const out = await runIn(repo, ['ls-files', '-z', '--others', ...(collapse ? ['--directory', '--no-empty-directory'] : [])], undefined, indexFile);
    return out
      .split('\0')
      .filter((p) => p.length > 0)
      .map((p) => p.replace(/\/$/, ''));
  } finally {
    rmSync(indexFile, { force: true });
  }
}

/**
 * Copies what setup left (untrackedRoots) from `root` into `dir` (replaced whole), without following
 * anything the sandbox could have planted: every parent must be a real directory, every entry must
 * belong to `expectOwner`, FIFOs and devices are refused. Files lose group/other write and set-id
 * bits, so a hard link to them grants nothing. Written to a temporary directory, then renamed; its
 * digest is the tree manifest's, as the dependency cache's integrity check uses.
 */
export async function keepSetupState(opts: { repo: RepoHandle; baseCommit: string; dir: string; expectOwner: number | null }): Promise<SetupStateManifest> {
  const roots = await untrackedRoots(opts.repo, opts.baseCommit, `${opts.dir}.index`);
  const tmp = `${opts.dir}.tmp`;
  await removeTreeOffLoop(tmp);
  mkdirSync(join(tmp, TREE), { recursive: true, mode: 0o700 });
  chmodSync(tmp, 0o700);
  const manifest: SetupStateManifest = { version: 1, roots: [], refused: [], files: 0, bytes: 0, digest: '' };
  for (const path of roots.sort()) {
    const parent = dirname(path);
    const why = parent === '.' ? null : notRealDirectory(opts.repo.root, parent);
    if (why) {
      manifest.refused.push({ path, reason: why });
      continue;
    }
    const dst = join(tmp, TREE, parent);
    mkdirSync(dst, { recursive: true });
    try {
      const copied = await copyTreeOffLoop(join(opts.repo.root, parent), dst, path.slice(parent === '.' ? 0 : parent.length + 1), {
        expectOwner: opts.expectOwner,
        maxBytes: MAX_BYTES - manifest.bytes,
        anyType: true,
        // No group or other write: a hard link to a kept file grants the tests nothing (clean-room.ts).
        fileMode: 0o755,
        // What a dependency-cache restore linked (greenfix's own files) is linked again, not copied.
        ...(opts.expectOwner !== null && opts.expectOwner !== process.getuid?.() ? { linkOwnedBy: process.getuid?.() } : {}),
      });
      manifest.roots.push(path);
      manifest.files += copied.files;
      manifest.bytes += copied.bytes;
    } catch (error) {
      if (!(error instanceof TreeCopyError)) throw error;
      await removeTreeOffLoop(join(dst, path.slice(parent === '.' ? 0 : parent.length + 1)));
      manifest.refused.push({ path, reason: errorText(error) });
    }
  }
  manifest.digest = (await treeManifestOffLoop(join(tmp, TREE), manifest.roots)).digest;
  writeFileSync(join(tmp, MANIFEST), `${JSON.stringify(manifest)}\n`, { mode: 0o600 });
  await removeTreeOffLoop(opts.dir);
  renameSync(tmp, opts.dir);
  return manifest;
}

/** The kept state's manifest; null when none was kept (no setup, or it was swept). */
export function readSetupState(dir: string): SetupStateManifest | null {
  if (!existsSync(join(dir, MANIFEST))) return null;
  return SetupStateManifestSchema.parse(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')));
}

/** Where the kept files are: `<dir>/tree/<root>`. */
export function setupStateTree(dir: string): string {
  return join(dir, TREE);
}


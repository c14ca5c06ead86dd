import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FileOwner } from '../sandbox/ownership.js';
import { DEFAULT_SANDBOX_PATH } from '../sandbox/environment.js';
import { errorText } from '../util/error-text.js';
import { readRegularText } from '../util/regular-file.js';
import { runProcess } from '../util/run-process.js';
import { LinkTreeError } from './link-tree.js';
import { firstDifference } from './tree-manifest.js';
import { linkTreeOffLoop, removeTreeOffLoop, treeManifestOffLoop } from './tree-work.js';

/** node_modules of ~100,000 files: ~15 MB of manifest. */
export const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

export interface PlaceEntryOptions {
  /** The entry: `<dir>/<name>` per directory, `<dir>/manifest` (tree-manifest.ts) whose sha256 is `digest`. */
  dir: string;
  dirs: readonly string[];
  digest: string;
  worktree: string;
  /** The job's sandbox uid; null when commands run as greenfix's own uid (then always a copy). */
  owner: FileOwner | null;
  warn(message: string): void;
}

/**
 * How an entry reached the worktree: 'linked' (hard links, checked by shape), 'copied' (a copy
 * checked by content, chowned to the job), 'failed' (nothing placed: setup runs) or 'bad' (the
 * entry does not match its manifest: the caller drops it; setup runs).
 */
export type Placement = 'linked' | 'copied' | 'failed' | 'bad';

/**
 * Puts a dependency cache entry's directories into a fresh worktree. When the job's commands run
 * as a uid of their own, by hard links (link-tree.ts: the job owns the directories, greenfix the
 * files, which no one else may write) — no byte is written, so a restore costs metadata only. Else,
 * or when the entry has a file a link would expose (group/other write: an entry stored before
 * links), by `cp -a --reflink=auto`, the copy checked against the manifest by content and chowned.
 */
export async function placeEntry(options: PlaceEntryOptions): Promise<Placement> {
  const { dir, dirs, worktree, owner, warn } = options;
  const drop = async () => {
    for (const name of dirs) await removeTreeOffLoop(join(worktree, name));
  };
  const hostUid = process.getuid?.() ?? null;
  if (owner && hostUid !== null && owner.uid !== hostUid) {
    const manifest = readRegularText(dir, 'manifest', MANIFEST_MAX_BYTES);
    if (manifest === null || createHash('sha256').update(manifest).digest('hex') !== options.digest) {
      warn(`dependency cache: dropped ${dir}: its manifest is missing or not the one written when it was stored: setup runs`);
      return 'bad';
    }
    try {
      await linkTreeOffLoop(dir, worktree, dirs, { sourceOwner: hostUid, dirOwner: owner, manifest });
      return 'linked';
    } catch (error) {
      await drop();
      if (!(error instanceof LinkTreeError)) throw error;
      if (error.reason === 'differs') {
        warn(`dependency cache: dropped ${dir}: ${error.message}: setup runs`);
        return 'bad';
      }
      // An entry stored before links (group/other write kept): copied as before.
    }
  }
  try {
    for (const name of dirs) await run(['cp', '-a', '-T', '--reflink=auto', '--no-preserve=ownership', join(dir, name), join(worktree, name)]);
  } catch (error) {
    warn(`dependency cache: restoring ${dir} failed (${errorText(error)}): setup runs`);
    await drop();
    return 'failed';
  }
  // The copy, not the entry, is checked: what the job gets is what was stored.
  const copied = await treeManifestOffLoop(worktree, dirs);
  if (copied.digest !== options.digest) {
    const stored = readRegularText(dir, 'manifest', MANIFEST_MAX_BYTES) ?? '';
    warn(`dependency cache: dropped ${dir}: its files differ from the manifest written when it was stored, first at ${firstDifference(stored, copied.text)}: setup runs`);
    await drop();
    return 'bad';
  }
  try {
    if (owner) for (const name of dirs) await run(['chown', '-R', '-h', `${owner.uid}:${owner.gid}`, join(worktree, name)]);
  } catch (error) {
    warn(`dependency cache: restoring ${dir} failed (${errorText(error)}): setup runs`);
    await drop();
    return 'failed';
  }
  return 'copied';
}

async function run(argv: string[]): Promise<void> {
  const r = await runProcess({ argv, cwd: '/', env: { PATH: DEFAULT_SANDBOX_PATH }, timeoutMs: 600_000 });
  if (r.exitCode !== 0) throw new Error(`${argv[0]} exited ${r.exitCode ?? r.signal}: ${r.stderr.trim().slice(0, 500)}`);
}

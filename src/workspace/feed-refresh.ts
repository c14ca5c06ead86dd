import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { ChangeFeed, FeedReport } from './change-feed.js';
import { GitError } from './git.js';
import { refreshBlobs, splitBlobPaths } from './blob-refresh.js';
import type { IndexLookup } from './index-file.js';
import type { IndexMemo } from './index-memo.js';
import { isRuleFile } from './inotify-events.js';
import type { EntryMap } from './index-entries.js';
import type { ObjectBatches } from './object-batches.js';
import { forgetRecent, recentSince, refreshPrivateIndex, runIn, type RepoHandle } from './private-index.js';

/** What a path is now, as `git add` would see it: through no symlink in its directories. */
type Kind = 'file' | 'dir' | 'gone' | 'other';

/** The workspace's repository, its private index kept in memory between hashes. */
type MemoRepo = RepoHandle & { memo: IndexMemo };

const SUBMODULE_REASON = 'a submodule (its HEAD is watched by nobody)';

/**
 * Brings the private index up to the worktree from a trusted feed report: only the paths the
 * feed named are looked at, with the same result as `git add -A` of the whole tree (the caller
 * then forgets recent stat data as after any add). Files named are re-checked by git's own stat
 * comparison (`update-index`), paths gone leave the index with everything below them, new
 * directories are added whole (`add -A` of them), new names git ignores are left out. Everything
 * that is about to be hashed is watched first, so a write after the hash reaches the next report:
 * a file the report names only for its content is (its watch reported it, and no event said its
 * name now stands for another file), so only the report's `named` files cost the helper a round trip.
 * Tracked files whose mode stayed take a shorter way (blob-refresh.ts: hashed, no stat kept).
 * Returns why the feed cannot be followed this time (the caller then hashes everything), or
 * whether git recorded stat data (then recent stat data must be forgotten).
 */
async function refreshFromFeed(repo: MemoRepo, feed: ChangeFeed, objects: ObjectBatches, report: Extract<FeedReport, { trusted: true }>, oidBytes: number): Promise<{ reason: string } | { statRecorded: boolean; tree: string | undefined }> {
  const index = repo.memo.read();
  if ('unsupported' in index) return { reason: `the private index: ${index.unsupported}` };
  if (index.hasSubmodule) return { reason: SUBMODULE_REASON };
  const dirsSeen = new Map<string, boolean>();
  const present: string[] = [];
  const gone: string[] = [];
  const newDirs: string[] = [];
  for (const path of report.paths) {
    const kind = kindOf(repo.root, path, dirsSeen);
    if (kind === 'other') return { reason: `${path} is neither a file, a symlink nor a directory` };
    if (kind === 'dir') newDirs.push(path);
    else (kind === 'file' ? present : gone).push(path);
  }
  for (const dir of report.dirs) if (kindOf(repo.root, dir, dirsSeen) === 'dir') newDirs.push(dir);
  const unknown = [...present.filter((path) => !index.has(path)), ...newDirs.filter((dir) => !index.has(dir))];
  const ignored = new Set(await checkIgnore(repo, unknown));
  const added = newDirs.filter((dir) => !ignored.has(dir));
  if (newDirs.some((dir) => ignored.has(dir) && index.below(dir).length > 0)) return { reason: 'an ignored directory with tracked files appeared' };
  if (added.length > 0) {
    const walked = await feed.watchDirs(added, await ignoredBelow(repo, added));
    if ('reason' in walked) return walked;
    const rules = walked.files.find(isRuleFile);
    if (rules !== undefined) return { reason: `${rules} appeared in a new directory` };
  }
  const updated = present.filter((path) => !ignored.has(path));
  // A name the report did not name still stands for the inode whose watch reported it.
  const watched = await feed.watchFiles(updated.filter((path) => report.named.has(path)));
  if (!watched.watching) return { reason: watched.reason };
  const { blobs, rest } = splitBlobPaths(repo.root, index, updated);
  const removed = removals(index, gone, present);
  if (removed.length > 0) await runIn(repo, ['update-index', '-z', '--index-info'], removed.map((path) => `0 ${'0'.repeat(oidBytes * 2)}\t${path}\0`).join(''));
  if (added.length > 0) await runIn(repo, ['--literal-pathspecs', 'add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], added.map((dir) => `${dir}\0`).join(''));
  const fast = await refreshBlobs(repo, objects, blobs, oidBytes);
  const stat = [...rest, ...fast.rest];
  if (stat.length > 0) await runIn(repo, ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], stat.map((path) => `${path}\0`).join(''));
  const gitWrote = stat.length > 0 || added.length > 0 || removed.length > 0;
  return { statRecorded: stat.length > 0 || added.length > 0, tree: gitWrote ? undefined : fast.tree };
}

/** Paths gone from the index: those gone from the worktree, and whatever lay below a path that is no directory now. */
function removals(index: IndexLookup, gone: readonly string[], files: readonly string[]): string[] {
  return [...new Set([...gone.filter((path) => index.has(path)), ...[...gone, ...files].flatMap((path) => index.below(path))])];
}

function kindOf(root: string, path: string, dirsSeen: Map<string, boolean>): Kind {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    let isDir = dirsSeen.get(dir);
    if (isDir === undefined) {
      isDir = statOf(join(root, dir))?.isDirectory() ?? false;
      dirsSeen.set(dir, isDir);
    }
    if (!isDir) return 'gone';
  }
  const st = statOf(join(root, path));
  if (st === undefined) return 'gone';
  if (st.isDirectory()) return 'dir';
  return st.isFile() || st.isSymbolicLink() ? 'file' : 'other';
}

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Which of `paths` (none in the index) git ignores. */
async function checkIgnore(repo: RepoHandle, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  try {
    const out = await runIn(repo, ['check-ignore', '-z', '--stdin'], paths.map((path) => `${path}\0`).join(''));
    return out.split('\0').filter((path) => path !== '');
  } catch (error) {
    // Exit 1: none of them is ignored.
    if (error instanceof GitError && error.kind === 'exit' && error.exitCode === 1) return [];
    throw error;
  }
}

/** The ignored directories below `dirs`, which a walk leaves out (`ls-files --directory` names each once, with a slash). */
export async function ignoredBelow(repo: RepoHandle, dirs: readonly string[]): Promise<string[]> {
  const out = await runIn(repo, ['--literal-pathspecs', 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--', ...dirs]);
  return out.split('\0').filter((path) => path.endsWith('/')).map((path) => path.slice(0, -1));
}

/**
 * `refreshPrivateIndex` with a change feed: only what the feed names is looked at when it can
 * vouch for the interval since the last hash; otherwise everything is hashed (today's refresh),
 * after the whole worktree is watched afresh, and hash-object starts afresh (what it read of the
 * attributes may be stale). Returns whether the ignored check ran (as refreshPrivateIndex),
 * and the index's tree when this refresh already wrote it (else write-tree's).
 */
export async function refreshWithFeed(repo: MemoRepo, feed: ChangeFeed, objects: ObjectBatches, base: EntryMap, zeroOid: string, checkIgnored: boolean): Promise<{ checked: boolean; tree: string | undefined }> {
  const sinceSec = recentSince();
  const report = await feed.changes();
  if (report.trusted) {
    const refreshed = await refreshFromFeed(repo, feed, objects, report, zeroOid.length / 2);
    if (!('reason' in refreshed)) {
      if (refreshed.statRecorded) await forgetRecent(repo, sinceSec, zeroOid.length / 2);
      return { checked: false, tree: refreshed.tree };
    }
    // No watch sees a submodule's HEAD: hashing everything every time, with no feed to restart.
    if (refreshed.reason === SUBMODULE_REASON) feed.close();
  }
  objects.rereadAttributes();
  if (report.trusted || !report.off) await watchAfresh(repo, feed);
  return { checked: await refreshPrivateIndex(repo, base, zeroOid, checkIgnored), tree: undefined };
}

/**
 * Restarts the feed on the whole worktree, ignored directories left out. A rule that changed
 * while the walk ran (before its directory was watched) would leave the wrong directories out:
 * the list is read again after the walk, and if it moved twice the next report is untrusted.
 */
async function watchAfresh(repo: RepoHandle, feed: ChangeFeed): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const ignored = await ignoredBelow(repo, []);
    const result = await feed.restart(ignored);
    if (!result.watching) return;
    const again = await ignoredBelow(repo, []);
    if (again.length === ignored.length && again.every((dir, i) => dir === ignored[i])) return;
  }
  feed.distrust('ignored directories changed while the worktree was being watched');
}

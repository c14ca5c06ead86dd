import { copyFileSync, existsSync, renameSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git.js';
import { GitBatch } from './git-batch.js';
import type { IndexMemo } from './index-memo.js';
import { parseLsFiles, type EntryMap } from './index-entries.js';
import { forgetRecentStat } from './recent-entries.js';

/** How git commands reach one worktree without trusting anything inside it (see GitWorkspace). */
export interface RepoHandle {
  root: string;
  gitDir: string;
  /** The private index file, never the worktree's own. */
  indexFile: string;
  /** Config overrides as GIT_CONFIG_* variables: the repository's filter drivers off (neutral-filters.ts). */
  configEnv?: Record<string, string>;
  /** The private index as kept in memory (index-memo.ts): written and dropped before git or a reader uses the file. */
  memo?: IndexMemo;
}

export function repoEnv(repo: RepoHandle, indexFile = repo.indexFile): Record<string, string> {
  return { ...repo.configEnv, GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.root, GIT_INDEX_FILE: indexFile };
}

/**
 * Lossless ASCII paths in every listing we parse (git-path.ts); fsmonitor off because no hook
 * command may run in this unsandboxed process, whatever a config says. The stat check at full
 * strength whatever the repository's config says (ctime and inode compared), and one index file
 * in a format recent-entries.ts reads.
 */
const QUOTED = [
  '-c', 'core.quotePath=on', '-c', 'core.fsmonitor=false',
  '-c', 'core.trustctime=true', '-c', 'core.checkStat=default',
  '-c', 'core.splitIndex=false', '-c', 'feature.manyFiles=false', '-c', 'index.version=2',
];

export function runIn(repo: RepoHandle, args: string[], input?: string, indexFile?: string): Promise<string> {
  if (indexFile === undefined || indexFile === repo.indexFile) repo.memo?.forget();
  return git([...QUOTED, ...args], {
    cwd: repo.root,
    env: repoEnv(repo, indexFile),
    ...(input === undefined ? {} : { input }),
  });
}

/** A long-running git of this worktree, as runIn would run it (git-batch.ts). */
export function batchIn(repo: RepoHandle, args: string[]): GitBatch {
  return new GitBatch([...QUOTED, ...args], { cwd: repo.root, env: repoEnv(repo) });
}

/**
 * Seeds the private index from the worktree's own index, keeping its mtime so git's racy-entry
 * check stays as strict as on the original; the stat data is what lets `git add -A` re-hash only
 * changed files. Without a real index, the base tree is read (first refresh then hashes all).
 */
export async function seedPrivateIndex(repo: RepoHandle, baseCommit: string): Promise<void> {
  if (existsSync(repo.indexFile)) return;
  const real = join(repo.gitDir, 'index');
  const tmp = `${repo.indexFile}.seed`;
  if (existsSync(real)) {
    copyFileSync(real, tmp);
    const st = statSync(real);
    utimesSync(tmp, st.atimeMs / 1000, Math.floor(st.mtimeMs) / 1000);
  } else {
    await runIn(repo, ['read-tree', baseCommit], undefined, tmp);
  }
  renameSync(tmp, repo.indexFile);
  // What was checked out in the second the real index was written may have been rewritten since.
  await forgetRecent(repo, Math.floor(statSync(repo.indexFile).mtimeMs / 1000) - 1, baseCommit.length / 2);
}

/**
 * Forgets the stat data of entries whose ctime is `sinceSec` or later (recent-entries.ts), so the
 * next add re-hashes them; an index in another format (version 4, split) is rewritten as version 2 first.
 */
export async function forgetRecent(repo: RepoHandle, sinceSec: number, oidBytes: number): Promise<void> {
  repo.memo?.forget();
  if (!('unsupported' in forgetRecentStat(repo.indexFile, sinceSec, oidBytes))) return;
  await runIn(repo, ['update-index', '--index-version', '2', '--no-split-index']);
  const again = forgetRecentStat(repo.indexFile, sinceSec, oidBytes);
  if ('unsupported' in again) throw new Error(`the private index ${repo.indexFile} cannot be read: ${again.unsupported}`);
}

/**
 * Brings the private index up to the working tree: everything git does not ignore (greenfix's
 * scratch files live outside it). Entries that are ignored now and not in the base are dropped, so the result equals
 * a fresh `read-tree base && add -A` even when .gitignore changed after a file was first seen.
 * That check costs as much as the add itself, so it only runs when asked (`checkIgnored`, e.g.
 * the first refresh of a process) or when the add touched a .gitignore. Returns whether it ran.
 */
export async function refreshPrivateIndex(
  repo: RepoHandle,
  base: EntryMap,
  zeroOid: string,
  checkIgnored: boolean,
): Promise<boolean> {
  const sinceSec = recentSince();
  const added = await runIn(repo, ['-c', 'core.untrackedCache=true', 'add', '-A', '--verbose', '--', ':/']);
  const checked = checkIgnored || /\.gitignore'?$/m.test(added);
  if (checked) {
    const ignored = await runIn(repo, ['ls-files', '--cached', '--ignored', '--exclude-standard']);
    const drop = ignored.split('\n').filter((p) => p !== '' && !base.has(p));
    if (drop.length > 0) {
      await runIn(repo, ['update-index', '--index-info'], drop.map((p) => `0 ${zeroOid}\t${p}\n`).join(''));
    }
  }
  await forgetRecent(repo, sinceSec, zeroOid.length / 2);
  return checked;
}

/** Entries with a ctime from this second on are forgotten after an add that starts now: a second early, the kernel stamps ctime from a coarse clock. */
export function recentSince(): number {
  return Math.floor(Date.now() / 1000) - 1;
}

export async function listPrivateIndex(repo: RepoHandle): Promise<EntryMap> {
  return parseLsFiles(await runIn(repo, ['ls-files', '--stage']));
}

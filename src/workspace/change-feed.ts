/**
 * What changed in a worktree since the last report, as a kernel feed saw it: every path named by
 * an event (a file written, created, removed or renamed; a directory removed) and every directory
 * that appeared (its whole content is new). `named`: the paths an event of their directory named
 * (created, removed, renamed: the name may stand for another file now) or whose file went away;
 * every other path in `paths` is a file whose own watched inode was written or changed its
 * attributes, and the name still stands for that watched inode. `trusted: false` when the feed
 * cannot vouch for the interval (events lost, a directory renamed, ignore rules changed, no feed
 * at all): the caller then hashes everything and restarts the feed.
 */
export type FeedReport = { trusted: true; paths: Set<string>; dirs: Set<string>; named: Set<string> } | { trusted: false; reason: string; off: boolean };

/** Either watching, or why not (`off`: never again for this worktree, e.g. a watch limit). */
export type WatchResult = { watching: true } | { watching: false; off: boolean; reason: string };

/**
 * A change feed of one worktree (paths relative to its root, `/`-separated, as the kernel names
 * them). Implementations: `InotifyFeed` (inotify-feed.ts) and `noChangeFeed` (always untrusted).
 */
export interface ChangeFeed {
  /** What changed since the last call (or the last restart); everything queued before the call is in it. */
  changes(): Promise<FeedReport>;
  /**
   * Forgets every watch and watches the whole worktree again, `ignoredDirs` (relative, no trailing
   * slash) left out; the next `changes()` reports what happened after this resolved.
   */
  restart(ignoredDirs: readonly string[]): Promise<WatchResult>;
  /** Watches directories that appeared (and everything below, `ignoredDirs` left out); returns the files found. */
  watchDirs(dirs: readonly string[], ignoredDirs: readonly string[]): Promise<{ files: string[] } | { reason: string }>;
  /**
   * Watches regular files by their inode (a write through any link is seen), before they are
   * hashed: the report's `named` paths (the others are watched already).
   */
  watchFiles(paths: readonly string[]): Promise<WatchResult>;
  /** The next report is untrusted, for this reason (the caller saw what the feed could not). */
  distrust(reason: string): void;
  /** Stops watching; the feed is off from then on. */
  close(): void;
}

/** No feed (no helper binary, or a caller that wants none): every hash hashes everything. */
export const noChangeFeed: ChangeFeed = {
  changes: () => Promise.resolve({ trusted: false, reason: 'no change feed', off: true }),
  restart: () => Promise.resolve({ watching: false, off: true, reason: 'no change feed' }),
  watchDirs: () => Promise.resolve({ reason: 'no change feed' }),
  watchFiles: () => Promise.resolve({ watching: false, off: true, reason: 'no change feed' }),
  distrust: () => undefined,
  close: () => undefined,
};

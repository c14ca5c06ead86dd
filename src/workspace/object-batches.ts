import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GitBatch } from './git-batch.js';
import { batchIn, type RepoHandle } from './private-index.js';

/**
 * The gits the change feed's short way writes objects with (blob-refresh.ts), kept running
 * between hashes (git-batch.ts): `hash-object -w --stdin-paths` (the repository's attributes
 * apply, as for `git add`) and `mktree -z --batch` (with `--missing` while the blobs are being
 * written). A running git read the config and `info/attributes` when it started, and a
 * directory's `.gitattributes` when it last looked there: all are started afresh when one of
 * those files changed (their stat data, checked before each request), and hash-object by
 * `rereadAttributes()`, which the caller calls whenever its feed could not vouch for an interval
 * (a `.gitattributes` in the worktree may have changed: inotify-events.ts). Neither reads the
 * index; mktree reads no attributes.
 */
export class ObjectBatches {
  private hashes: GitBatch | undefined;
  private trees: GitBatch | undefined;
  private checkedTrees: GitBatch | undefined;
  private stamp = '';

  constructor(private readonly repo: RepoHandle) {}

  /** Writes the blobs of `paths` (relative, no newline, no leading quote) and returns their ids. */
  async hashFiles(paths: readonly string[]): Promise<string[]> {
    this.checkConfig();
    this.hashes ??= batchIn(this.repo, ['hash-object', '-w', '--stdin-paths']);
    return this.hashes.ask(paths.map((path) => `${path}\n`).join(''), paths.length);
  }

  /**
   * Writes `count` trees (`mktree -z` input, trees apart by an empty record) and returns their ids
   * in order; `present`: every object they name must be in the store (else git fails), `missing`:
   * not looked for (the blobs are being written meanwhile).
   */
  async makeTrees(input: string, count: number, objects: 'present' | 'missing'): Promise<string[]> {
    this.checkConfig();
    const batch = objects === 'missing'
      ? (this.trees ??= batchIn(this.repo, ['mktree', '-z', '--batch', '--missing']))
      : (this.checkedTrees ??= batchIn(this.repo, ['mktree', '-z', '--batch']));
    // The last tree ends with an empty record too: git names it without waiting for the end of input.
    return batch.ask(`${input}\0`, count);
  }

  private checkConfig(): void {
    const stamp = configStamp(this.repo.gitDir);
    if (stamp !== this.stamp) this.reset();
    this.stamp = stamp;
  }

  /** Ends hash-object: the next hash starts it afresh, reading every `.gitattributes` again. */
  rereadAttributes(): void {
    this.hashes?.close();
    this.hashes = undefined;
  }

  /** Ends every process; the next request starts them again (reading config and attributes afresh). */
  reset(): void {
    for (const batch of [this.hashes, this.trees, this.checkedTrees]) batch?.close();
    this.hashes = undefined;
    this.trees = undefined;
    this.checkedTrees = undefined;
  }
}

/** The stat data of every file git reads its config and global attributes from (a missing one too). */
function configStamp(gitDir: string): string {
  let common = gitDir;
  try {
    common = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    // No commondir: the git dir is the common dir.
  }
  const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree'), join(common, 'config'), join(common, 'config.worktree'), join(common, 'info', 'attributes')];
  return files.map((file) => {
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    return st === undefined ? '-' : `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  }).join(' ');
}

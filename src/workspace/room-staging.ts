import { chmodSync, lchownSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FileOwner } from '../sandbox/ownership.js';
import { runIn, type RepoHandle } from './private-index.js';
import { linksKept, type StagedKept } from './restore-kept.js';
import { checkOutRoom } from './room-checkout.js';
import { readSetupState, setupStateTree } from './setup-state.js';
import { removeTreeOffLoop, stageKeptOffLoop } from './tree-work.js';

/** What one staging placed, and how long it took (off any verdict's path). */
export interface StagedRoom {
  /** Kept setup files placed beside the base's checkout. */
  keptFiles: number;
  ms: number;
}

/**
 * The next clean room, made ahead of its verdict (ObservableWorkspace `prepareCleanRooms`): the
 * base tree checked out and handed to the tests' uid, the kept setup state placed beside it. A
 * verdict then changes only what its tree changed and renames the room in.
 */
export interface CleanRoomStaging {
  /** Resolves once the next room is staged: null when staging stopped or failed (the room is then made as before). */
  ready(): Promise<StagedRoom | null>;
  /** Stages no more: waits for the staging under way, then removes what is staged. */
  stop(): Promise<void>;
}

interface Staged extends StagedRoom {
  /** The room: `base` checked out with `index` (stat data included), the `.git` file, all the owner's. */
  room: string;
  index: string;
  /** The kept roots, and the kept state's digest they were staged from; null: nothing kept. */
  kept: (StagedKept & { digest: string }) | null;
}

export interface RoomStagingOptions {
  repo: RepoHandle;
  /** The tree every room is staged from (the job's base: a verdict's tree differs from it by the fix). */
  base: string;
  /** The kept setup state (setup-state.ts). */
  setupState: string;
  /** greenfix's own directory, which no sandbox binds, on the room's file system (renames reach the room). */
  dir: string;
  /** Who the rooms are for. */
  owner: FileOwner | null;
  /** The room's `.git` file (clean-room.ts); null: none. */
  gitFile: string | null;
}

/**
 * Stages one room at a time. A staging serves one room at most and is made anew from the object
 * store and the kept state after that room is discarded (off the verdict's path: while the model
 * works): a room's tests may change anything they were given. What another process left in `dir`
 * (a crash) is removed, never used: only what this object staged since the last room counts.
 */
export class RoomStaging implements CleanRoomStaging {
  private next: Promise<Staged | null>;
  private stopped = false;
  private discarded = 0;

  constructor(private readonly o: RoomStagingOptions) {
    this.next = this.stage();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  async ready(): Promise<StagedRoom | null> {
    const staged = await this.next;
    return staged && { keptFiles: staged.keptFiles, ms: staged.ms };
  }

  /**
   * Makes `dir` (absent) the room of `tree` from what is staged: git brings the staged checkout of
   * the base to `tree` (a two-tree read-tree, writing only what differs), what it wrote is handed
   * to `owner`, and the room is renamed into place. Returns the staged kept roots for restoreKept
   * when they were staged from the kept state of `keptDigest` (else null); null when nothing
   * fitting is staged, and the caller materialises `tree` itself.
   */
  async take(o: { tree: string; dir: string; owner: FileOwner | null; keptDigest: string | null }): Promise<{ kept: StagedKept | null } | null> {
    const { tree, dir, owner } = o;
    const staged = await this.next;
    this.next = Promise.resolve(null);
    if (!staged || !sameOwner(owner, this.o.owner)) return null;
    const repo = { ...this.o.repo, root: staged.room };
    try {
      // The chown changed every file's owner and ctime since the index recorded them: only size, mode and mtime tell a change
      // here (nothing but greenfix ever wrote in this directory), so no file needs reading again.
      await runIn(repo, ['-c', 'core.sparseCheckout=false', '-c', 'core.checkStat=minimal', '-c', 'core.trustctime=false', 'read-tree', '-m', '-u', this.o.base, tree], undefined, staged.index);
      if (owner) handOver(staged.room, await writtenPaths(repo, this.o.base, tree), owner);
    } catch {
      // What is staged goes with the next staging; the caller checks `tree` out itself, and meets the error again if it lasts.
      return null;
    }
    renameSync(staged.room, dir);
    return { kept: staged.kept && staged.kept.digest === o.keptDigest ? staged.kept : null };
  }

  /** Removes a room made from this staging (renamed out of the way at once, deleted before the next staging), and stages the next. */
  async discard(room: string): Promise<void> {
    if (this.stopped) return removeTreeOffLoop(room);
    const trash = `${this.o.dir}.trash-${++this.discarded}`;
    try {
      renameSync(room, trash);
    } catch {
      await removeTreeOffLoop(room);
      return this.restage();
    }
    this.restage(trash);
  }

  /** Stages anew once whatever is under way is done (`trash` removed first); for a room that failed to open as well. */
  restage(trash?: string): void {
    this.next = this.next.then(async () => {
      if (trash) await removeTreeOffLoop(trash).catch(() => undefined);
      return this.stopped ? null : this.stage();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.next;
    this.next = Promise.resolve(null);
    await removeTreeOffLoop(this.o.dir);
  }

  private async stage(): Promise<Staged | null> {
    if (this.stopped) return null;
    const started = performance.now();
    try {
      await removeTreeOffLoop(this.o.dir);
      mkdirSync(this.o.dir, { mode: 0o700 });
      chmodSync(this.o.dir, 0o700);
      const room = join(this.o.dir, 'room');
      const index = join(this.o.dir, 'room.index');
      await checkOutRoom({ repo: this.o.repo, tree: this.o.base, dir: room, index, gitFile: this.o.gitFile, owner: this.o.owner });
      const manifest = readSetupState(this.o.setupState);
      let kept: Staged['kept'] = null;
      if (manifest) {
        const from = setupStateTree(this.o.setupState);
        const files = await stageKeptOffLoop({ from, dir: join(this.o.dir, 'kept'), roots: manifest.roots, link: linksKept(this.o.owner), owner: this.o.owner });
        kept = { dir: join(this.o.dir, 'kept'), files, digest: manifest.digest };
      }
      const keptFiles = kept ? Object.values(kept.files).reduce((a, b) => a + b, 0) : 0;
      return { room, index, kept, keptFiles, ms: performance.now() - started };
    } catch {
      // Nothing is lost: the room is then made as before, and meets the same error there if it lasts.
      return null;
    }
  }
}

/**
 * Every path `tree` has that differs from `base` (added, changed, of another type), with the
 * directories above it: what the two-tree read-tree may have written. Each is a path of `tree`,
 * so every directory above it is a real directory git made or kept, never a symlink.
 */
async function writtenPaths(repo: RepoHandle, base: string, tree: string): Promise<string[]> {
  const changed = (await runIn(repo, ['diff-tree', '-r', '-z', '--name-only', '--diff-filter=d', base, tree])).split('\0').filter((p) => p.length > 0);
  const paths = new Set<string>();
  for (const path of changed) {
    for (let at = path; at !== '.' && !paths.has(at); at = dirname(at)) paths.add(at);
  }
  return [...paths];
}

/** `lchown` of each path under `room` (what git wrote as greenfix): the symlink itself, never its target. */
function handOver(room: string, paths: readonly string[], owner: FileOwner): void {
  for (const path of paths) lchownSync(join(room, path), owner.uid, owner.gid);
}

function sameOwner(a: FileOwner | null, b: FileOwner | null): boolean {
  return a === b || (a !== null && b !== null && a.uid === b.uid && a.gid === b.gid);
}

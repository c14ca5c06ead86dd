import { constants, lstatSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { FileOwner } from '../sandbox/ownership.js';
import type { RepoHandle } from './private-index.js';
import { linksKept, type KeptPlaced } from './restore-kept.js';
import { checkOutRoom } from './room-checkout.js';
import type { RoomStaging } from './room-staging.js';
import { readSetupState, setupStateTree, untrackedRoots } from './setup-state.js';
import { removeTreeOffLoop, restoreKeptOffLoop } from './tree-work.js';

/**
 * The clean room of DESIGN §3.2: a fresh directory holding exactly one tree, from the object store
 * (no ignored file, nothing the agent wrote outside the tree), plus the dependency state this
 * fix's setup left before the agent acted (setup-state.ts). The verify command runs there, shown
 * at the worktree's own path (`mountAt`), and that run alone decides.
 */
export interface CleanRoom {
  /** The host directory. */
  readonly dir: string;
  /** Where sandboxed commands see it: the worktree's path. */
  readonly mountAt: string;
  /**
   * Directories setup installed (node_modules, .venv) that `tree` has paths inside: the change
   * wrote into the dependencies, which no fix may do (clean-room-gate.ts refuses it).
   */
  readonly setupDirsInTree: readonly string[];
  /**
   * How long materialising the tree and restoring the setup state took; the setup state's files,
   * how many of them came staged, and whether the tree came staged (room-staging.ts).
   */
  readonly timings: { materialiseMs: number; restoreMs: number; files: number; staged: number; treeStaged: boolean };
  /** Removes the directory (on the tree thread; staged, renamed aside at once and removed before the next staging). */
  dispose(): Promise<void>;
}

/** Where a worktree's clean room is made: beside it, so its parent lets the sandbox uid pass as the worktree's does. */
export function cleanRoomDir(worktree: string): string {
  return `${worktree}.clean-room`;
}

export interface CleanRoomOptions {
  repo: RepoHandle;
  tree: string;
  /** A host directory, replaced whole; its parent must let `owner` pass (o+x). */
  dir: string;
  /** The kept setup state (setup-state.ts), or null: the tree alone. */
  setupState: string | null;
  /** Who runs the tests: the room is theirs, except the setup state's files when linked. */
  owner: FileOwner | null;
  /** The `.git` file of the worktree (`gitdir: …`), so git works inside as it does there; null: none. */
  gitFile: string | null;
  /** The next room, staged ahead (room-staging.ts); none: the tree checked out and the setup state restored here. */
  staging?: RoomStaging;
}

/**
 * Materialises `tree` (checked out of the object store with a throwaway index, filters off)
 * and restores the setup state: hard links when the tests run as another uid than greenfix (the
 * kept files are greenfix's and not writable by others, so a test can replace but never change
 * them), a copy otherwise. The tree wins where both have a path; nothing is followed through a
 * symlink the tree holds. With `staging`, the room is what was staged for it, brought to `tree`
 * by git, and a kept root the tree does not have is renamed in; the rest as without.
 */
export async function openCleanRoom(o: CleanRoomOptions): Promise<CleanRoom> {
  const started = performance.now();
  await removeTreeOffLoop(o.dir);
  try {
    const manifest = o.setupState ? readSetupState(o.setupState) : null;
    const taken = o.staging ? await o.staging.take({ tree: o.tree, dir: o.dir, owner: o.owner, keptDigest: manifest?.digest ?? null }) : null;
    if (!taken) await materialise(o);
    const materialised = performance.now();
    let placed: KeptPlaced = { files: 0, staged: 0, setupDirsInTree: [] };
    if (o.setupState && manifest) {
      const base = { from: setupStateTree(o.setupState), dir: o.dir, roots: manifest.roots, link: linksKept(o.owner), owner: o.owner };
      placed = await restoreKeptOffLoop(taken?.kept ? { ...base, staged: taken.kept } : base);
    }
    const done = performance.now();
    return {
      dir: o.dir,
      mountAt: o.repo.root,
      setupDirsInTree: placed.setupDirsInTree,
      timings: { materialiseMs: materialised - started, restoreMs: done - materialised, files: placed.files, staged: placed.staged, treeStaged: taken !== null },
      dispose: () => (o.staging ? o.staging.discard(o.dir) : removeTreeOffLoop(o.dir)),
    };
  } catch (error) {
    o.staging?.restage();
    throw error;
  }
}

/** `tree` checked out into `o.dir` (room-checkout.ts) with a throwaway index. */
async function materialise(o: CleanRoomOptions): Promise<void> {
  const index = `${o.dir}.index`;
  try {
    await checkOutRoom({ repo: o.repo, tree: o.tree, dir: o.dir, index, gitFile: o.gitFile, owner: o.owner });
  } finally {
    rmSync(index, { force: true });
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * What the worktree holds outside `tree` that the clean room would not give the tests: paths the
 * tree lacks that setup did not leave, or left with another size or type. For the model, when its
 * run passed and the clean room's did not ("your run read ignored files: …").
 */
export async function outsideTree(repo: RepoHandle, tree: string, setupState: string | null, indexFile: string): Promise<string[]> {
  const kept = setupState ? setupStateTree(setupState) : null;
  const paths = await untrackedRoots(repo, tree, indexFile, false);
  const differs: string[] = [];
  for (const path of paths.sort()) {
    const here = lstatOrNull(join(repo.root, path));
    const there = kept ? lstatOrNull(join(kept, path)) : null;
    if (!here) continue;
    if (!there) differs.push(`${path} (not made by setup)`);
    else if ((here.mode & constants.S_IFMT) !== (there.mode & constants.S_IFMT) || (here.isFile() && here.size !== there.size)) differs.push(`${path} (changed since setup)`);
  }
  return differs;
}

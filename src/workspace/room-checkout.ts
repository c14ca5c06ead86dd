import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileOwner } from '../sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../sandbox/prepare-workspace-ownership.js';
import { runIn, type RepoHandle } from './private-index.js';

export interface RoomCheckoutOptions {
  repo: RepoHandle;
  tree: string;
  /** A directory that does not exist yet; made 0755 (its parent must let `owner` pass). */
  dir: string;
  /** The checkout's own index (not the workspace's), written with each file's stat data. */
  index: string;
  /** The `.git` file (`gitdir: …`), so git works inside as in the worktree; null: none. */
  gitFile: string | null;
  owner: FileOwner | null;
}

/**
 * A clean room's tree (clean-room.ts, and the staged room of room-staging.ts): `tree` checked out
 * of the object store into `dir` with an index of its own (`read-tree --reset -u`, the repository's
 * filters off, sparse checkout off), the `.git` file written, and everything handed to `owner`.
 */
export async function checkOutRoom(o: RoomCheckoutOptions): Promise<void> {
  mkdirSync(o.dir, { mode: 0o755 });
  chmodSync(o.dir, 0o755);
  await runIn({ ...o.repo, root: o.dir }, ['-c', 'core.sparseCheckout=false', 'read-tree', '--reset', '-u', o.tree], undefined, o.index);
  if (o.gitFile !== null) writeFileSync(join(o.dir, '.git'), o.gitFile);
  await prepareWorkspaceOwnership(o.dir, o.owner);
}

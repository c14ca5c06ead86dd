import { lstatSync } from 'node:fs';
import { lchown, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../util/run-process.js';
import { DEFAULT_SANDBOX_PATH } from './environment.js';
import type { FileOwner } from './ownership.js';

/** Paths per `chown` process (prepareWorkspaceOwnership). */
const CHOWN_ARGS = 1_000;

/**
 * Hands the worktree to the sandbox uid: every entry under `dir`, `dir` included. Symlinks are
 * changed themselves and never followed (`chown -R -h`, which never traverses one either), so a
 * link in the repository cannot make root chown something outside. The worktree's `.git` file is
 * included: harmless, it only points at the git dir, which stays root's and is bound read-only.
 * `dir` itself comes last, so a root owned by `owner` means the whole tree is (a crash midway
 * leaves the root to redo it). One `chown` process walks the tree (from the process host): walked
 * from Node, every entry was a round trip through the thread pool and a callback on the event loop
 * that answers webhooks, at every job's start and every clean room (docs/decisions.md).
 */
export async function prepareWorkspaceOwnership(dir: string, owner: FileOwner | null): Promise<void> {
  if (!owner) return;
  const children = (await readdir(dir)).map((name) => join(dir, name));
  // Chunked, so a root of many entries stays far under the argument list's limit.
  for (let i = 0; i < children.length; i += CHOWN_ARGS) {
    const argv = ['chown', '-R', '-h', `${owner.uid}:${owner.gid}`, '--', ...children.slice(i, i + CHOWN_ARGS)];
    const r = await runProcess({ argv, cwd: '/', env: { PATH: DEFAULT_SANDBOX_PATH, LC_ALL: 'C' }, timeoutMs: 600_000 });
    if (r.exitCode !== 0) throw new Error(`could not hand ${dir} to uid ${owner.uid} (chown exit ${r.exitCode}): ${r.stderr.trim().split('\n').slice(0, 3).join('; ') || 'no output'}`);
  }
  await lchown(dir, owner.uid, owner.gid);
}

/** Who owns a tree: its root's uid (the whole tree's once `prepareWorkspaceOwnership` is done); undefined when it is missing. */
export function treeOwnerUid(path: string): number | undefined {
  try {
    return lstatSync(path).uid;
  } catch {
    return undefined;
  }
}

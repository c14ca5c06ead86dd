import { sandboxFileOwner } from '../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../src/sandbox/prepare-workspace-ownership.js';
import type { GitWorkspace } from '../src/workspace/git-workspace.js';
import { addWorktree } from '../src/workspace/worktree.js';

/**
 * A fresh worktree of `repo` at HEAD, as `greenfix fix` makes one: handed to the sandbox uid when
 * greenfix runs as root. One per run, so every run starts from the same files.
 */
export async function benchWorktree(repo: string, path: string, stateDir: string): Promise<GitWorkspace> {
  const workspace = await addWorktree({ repo, path, ref: 'HEAD', stateDir });
  await prepareWorkspaceOwnership(path, sandboxFileOwner());
  return workspace;
}

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectCommands, type CommandOverrides } from './detect-commands.js';
import { neutralFilterEnv } from './neutral-filters.js';
import { runIn, type RepoHandle } from './private-index.js';
import type { Commands } from './types.js';

/**
 * Command detection on another commit's files than the worktree's: `commit` is checked out of the
 * object store (a throwaway index, the repository's filters off) into a temporary directory,
 * detected there, and removed. For jobs on greenfix's own branches, whose tree the model wrote:
 * the default branch's `package.json` decides the test command, not the model's.
 */
export async function detectCommandsAt(gitDir: string, commit: string, overrides: CommandOverrides = {}, warn?: (message: string) => void): Promise<Commands> {
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-detect-'));
  try {
    const root = join(dir, 'tree');
    mkdirSync(root);
    const repo: RepoHandle = { root, gitDir, indexFile: join(dir, 'index'), configEnv: await neutralFilterEnv(gitDir, dir) };
    await runIn(repo, ['read-tree', commit]);
    await runIn(repo, ['checkout-index', '--all', '--force', `--prefix=${root}/`]);
    return detectCommands(root, overrides, warn);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

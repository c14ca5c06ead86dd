import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The git dir a worktree's `.git` FILE points at, resolved to the repository's common dir (the
 * one holding objects and refs), or null when `.git` is absent or an ordinary directory (then it
 * is inside the workspace and visible anyway). Bound read-only so `git status` works inside.
 */
export function gitCommonDirOf(workspace: string): string | null {
  const dotGit = join(workspace, '.git');
  let text: string;
  try {
    if (!statSync(dotGit).isFile()) return null;
    text = readFileSync(dotGit, 'utf8');
  } catch {
    return null;
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match?.[1]) return null;
  const gitDir = resolve(workspace, match[1]);
  try {
    return resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir;
  }
}

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { runProcess } from '../../src/util/run-process.js';

export const IDENTITY = ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgSign=false'];

export async function rev(cwd: string, spec: string): Promise<string> {
  return (await git(['rev-parse', '--verify', spec], { cwd })).trim();
}

/** The tree `git add -A && git commit` makes in a full copy of `root` (the original untouched). */
export async function treeOfCommitInCopy(root: string, scratch: string): Promise<string> {
  const copy = join(scratch, 'copy');
  rmSync(copy, { recursive: true, force: true });
  // cp -a, not fs.cpSync: node cannot name files whose names are not UTF-8.
  const cp = await runProcess({ argv: ['cp', '-a', root, copy], cwd: scratch, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 60_000 });
  if (cp.exitCode !== 0) throw new Error(`cp -a failed: ${cp.stderr}`);
  await git(['add', '-A'], { cwd: copy });
  await git([...IDENTITY, 'commit', '-q', '--allow-empty', '-m', 'copy'], { cwd: copy });
  return rev(copy, 'HEAD^{tree}');
}

/**
 * The hash after `change` must be the tree `git add -A` makes of a copy of the worktree (its .git,
 * config included, in `scratch`), and not the hash before.
 */
export async function expectHashSeen(ws: { treeHash(): Promise<string> }, root: string, scratch: string, change: () => void): Promise<string> {
  const before = await ws.treeHash();
  change();
  const after = await ws.treeHash();
  expect(after).toBe(await treeOfCommitInCopy(root, scratch));
  expect(after).not.toBe(before);
  return after;
}

import { createHash } from 'node:crypto';
import type { DepCacheScope } from '../workspace/dep-cache-scope.js';
import { git } from '../workspace/git.js';

/**
 * The dependency cache's scope of `greenfix fix` in a checkout (choice, as in the app): the ref is
 * the branch checked out (the one being fixed; a detached HEAD is its own ref per commit); the
 * default branch is the one `origin/HEAD` names, else `main`, else `master` when it exists. So a
 * branch checked out from someone's pull request, whose install planted files, never hands them
 * to a run on the default branch.
 */
export async function localCacheScope(repo: string): Promise<DepCacheScope> {
  const scope = { repo: createHash('sha256').update(repo).digest('hex').slice(0, 32) };
  const head = await quiet(['symbolic-ref', '--quiet', 'HEAD'], repo);
  const ref = head ?? `detached:${(await quiet(['rev-parse', '--verify', '--quiet', 'HEAD'], repo)) ?? 'unborn'}`;
  const origin = await quiet(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], repo);
  if (origin) return { ...scope, ref, defaultRef: origin.replace(/^refs\/remotes\/origin\//, 'refs/heads/') };
  for (const name of ['refs/heads/main', 'refs/heads/master']) {
    if (await quiet(['rev-parse', '--verify', '--quiet', name], repo)) return { ...scope, ref, defaultRef: name };
  }
  // No default branch to be found: only the run's own ref is read.
  return { ...scope, ref, defaultRef: ref };
}

async function quiet(args: string[], cwd: string): Promise<string | null> {
  try {
    return (await git(args, { cwd })).trim() || null;
  } catch {
    return null;
  }
}

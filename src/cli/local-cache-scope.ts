import { createHash } from 'node:crypto';
import type { DepCacheScope } from '../workspace/dep-cache-scope.js';
import { git } from '../workspace/git.js';
import { headRef } from './base-name.js';

/** Where the default branch is looked for, in this order. */
const DEFAULT_REFS = ['refs/remotes/origin/HEAD', 'refs/heads/main', 'refs/heads/master'] as const;

/**
 * The dependency cache's scope of `greenfix fix` in a checkout (choice, as in the app): the ref is
 * the branch checked out (the one being fixed; a detached HEAD is its own ref per commit); the
 * default branch is the one `origin/HEAD` names, else `main`, else `master` when it exists. So a
 * branch checked out from someone's pull request, whose install planted files, never hands them
 * to a run on the default branch. `head`: headRef's answer when the caller has asked already.
 */
export async function localCacheScope(repo: string, head?: Promise<string | null>): Promise<DepCacheScope> {
  const scope = { repo: createHash('sha256').update(repo).digest('hex').slice(0, 32) };
  const [symbolic, candidates] = await Promise.all([head ?? headRef(repo), defaultRefCandidates(repo)]);
  const ref = symbolic ?? `detached:${(await quiet(['rev-parse', '--verify', '--quiet', 'HEAD'], repo)) ?? 'unborn'}`;
  const origin = candidates.get('refs/remotes/origin/HEAD');
  if (origin) return { ...scope, ref, defaultRef: origin.replace(/^refs\/remotes\/origin\//, 'refs/heads/') };
  for (const name of ['refs/heads/main', 'refs/heads/master']) {
    if (candidates.has(name)) return { ...scope, ref, defaultRef: name };
  }
  // No default branch to be found: only the run's own ref is read.
  return { ...scope, ref, defaultRef: ref };
}

/**
 * Which of DEFAULT_REFS exist (each naming an object), with the ref a symbolic one points to
 * ('' for a plain one): one `git for-each-ref` for the three.
 */
async function defaultRefCandidates(repo: string): Promise<Map<string, string>> {
  const listing = (await quiet(['for-each-ref', '--format=%(refname)%00%(symref)', ...DEFAULT_REFS], repo)) ?? '';
  const found = new Map<string, string>();
  for (const line of listing.split('\n')) {
    const [name, target = ''] = line.split('\0');
    if (name && (DEFAULT_REFS as readonly string[]).includes(name)) found.set(name, target);
  }
  return found;
}

async function quiet(args: string[], cwd: string): Promise<string | null> {
  try {
    return (await git(args, { cwd })).trim() || null;
  } catch {
    return null;
  }
}

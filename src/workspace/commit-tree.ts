import { git } from './git.js';

export interface CommitVerifiedTreeOptions {
  repo: string;
  /** The verified tree hash; committed exactly as is. */
  tree: string;
  /** The base commit: the only parent; null for a root commit (a fix on the empty base). */
  parent: string | null;
  message: string;
  /** Author and committer date. Fixed by the caller (journal) so a retry makes the same commit. */
  date: Date;
}

/** One identity for every greenfix commit, independent of the machine's git config. */
export const GREENFIX_IDENTITY = { name: 'greenfix', email: 'greenfix@users.noreply.github.com' } as const;

/**
 * Commits exactly the verified tree (DESIGN §3.2), so `git rev-parse HEAD^{tree}` on the pushed
 * branch is the hash in the PR. Everything that goes into the commit object comes from the
 * arguments, so running it again after a crash yields the same commit oid.
 */
export async function commitVerifiedTree(opts: CommitVerifiedTreeOptions): Promise<string> {
  const when = `@${Math.floor(opts.date.getTime() / 1000)} +0000`;
  const message = opts.message.endsWith('\n') ? opts.message : `${opts.message}\n`;
  const out = await git(['commit-tree', '--no-gpg-sign', ...(opts.parent === null ? [] : ['-p', opts.parent]), '-F', '-', opts.tree], {
    cwd: opts.repo,
    input: message,
    env: {
      GIT_AUTHOR_NAME: GREENFIX_IDENTITY.name,
      GIT_AUTHOR_EMAIL: GREENFIX_IDENTITY.email,
      GIT_AUTHOR_DATE: when,
      GIT_COMMITTER_NAME: GREENFIX_IDENTITY.name,
      GIT_COMMITTER_EMAIL: GREENFIX_IDENTITY.email,
      GIT_COMMITTER_DATE: when,
    },
  });
  return out.trim();
}

/** Points refs/heads/<branch> at `commit` (created or moved; the name is validated by git). */
export async function updateBranch(repo: string, branch: string, commit: string): Promise<void> {
  await git(['check-ref-format', '--branch', branch], { cwd: repo });
  await git(['update-ref', '-m', 'greenfix: verified tree', `refs/heads/${branch}`, commit], { cwd: repo });
}

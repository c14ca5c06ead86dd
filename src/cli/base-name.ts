import { git } from '../workspace/git.js';

/**
 * The ref HEAD names in the repository (`refs/heads/main`), or null: detached, unreadable. One git
 * process that `greenfix fix` asks once: the base's name and the dependency cache's scope both use it.
 */
export async function headRef(repo: string): Promise<string | null> {
  try {
    return (await git(['symbolic-ref', '--quiet', 'HEAD'], { cwd: repo })).trim() || null;
  } catch {
    return null;
  }
}

/** How the CLI names the base to a person: the branch checked out in the repository (headRef), with the commit. */
export function baseName(head: string | null, baseCommit: string): string {
  const short = baseCommit.slice(0, 7);
  return head ? `${head.replace(/^refs\/heads\//, '')} @ ${short}` : short;
}

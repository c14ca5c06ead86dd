import { git } from '../workspace/git.js';

/** How the CLI names the base to a person: the branch checked out in the repository, with the commit. */
export async function baseName(repo: string, baseCommit: string): Promise<string> {
  const short = baseCommit.slice(0, 7);
  try {
    const branch = (await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: repo })).trim();
    return branch ? `${branch} @ ${short}` : short;
  } catch {
    return short;
  }
}

import * as z from 'zod';
import { CONFIG_PATH } from '../config/parse-repo-config.js';

const Pushed = z.object({
  ref: z.string(),
  forced: z.boolean().optional(),
  created: z.boolean().optional(),
  commits: z.array(z.object({ added: z.array(z.string()).optional(), modified: z.array(z.string()).optional(), removed: z.array(z.string()).optional() })).optional(),
  repository: z.object({ id: z.number(), name: z.string(), default_branch: z.string().optional(), owner: z.object({ login: z.string() }) }),
});

/** GitHub lists at most this many commits in a push payload: a longer push may touch anything. */
const LISTED_COMMITS = 20;

/**
 * Which cached repository configs a `push` delivery makes stale: the repository's own, when the
 * push to its default branch touches `.github/greenfix.yml`; every repository of the owner, when
 * that happens in the owner's `.github` repository (the base Probot's reader extends). A push whose
 * files are not all listed (a force-push, a new branch, more commits than GitHub lists) counts as
 * touching it. null: nothing to forget. Never throws.
 */
export function configChangedBy(payload: unknown): { repoId: number } | { owner: string } | null {
  const parsed = Pushed.safeParse(payload);
  if (!parsed.success) return null;
  const { ref, forced, created, commits, repository } = parsed.data;
  if (!repository.default_branch || ref !== `refs/heads/${repository.default_branch}`) return null;
  const unlisted = forced === true || created === true || !commits || commits.length >= LISTED_COMMITS;
  const touched = unlisted || commits.some((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(CONFIG_PATH));
  if (!touched) return null;
  return repository.name === '.github' ? { owner: repository.owner.login } : { repoId: repository.id };
}

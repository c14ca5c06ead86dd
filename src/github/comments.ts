import { createOnce } from './create-once.js';
import { call, GitHubError } from './errors.js';
import type { HostDeps } from './host-deps.js';
import { NO_RETRY } from './no-retry.js';

interface FoundComment {
  id: number;
  body: string;
}

/** A plain comment (refusals, config errors): one POST, not retried (a duplicate is worse than none). */
export async function comment(deps: HostDeps, issueNumber: number, body: string): Promise<number> {
  const { data } = await call('create comment', () =>
    deps.octokit.rest.issues.createComment({ owner: deps.owner, repo: deps.repo, issue_number: issueNumber, body, ...NO_RETRY }),
  );
  return data.id;
}

/**
 * The first comment of the issue by an app (greenfix comments as one) that contains `marker` (all
 * pages: busy issues have hundreds). A person's comment carrying the marker is never taken for ours.
 */
export async function findMarkedComment(deps: HostDeps, issueNumber: number, marker: string): Promise<FoundComment | null> {
  const comments = await call('list comments', () =>
    deps.octokit.paginate(deps.octokit.rest.issues.listComments, {
      owner: deps.owner,
      repo: deps.repo,
      issue_number: issueNumber,
      per_page: 100,
    }),
  );
  const hit = comments.find((c) => c.user?.type === 'Bot' && (c.body ?? '').includes(marker));
  return hit ? { id: hit.id, body: hit.body ?? '' } : null;
}

/**
 * The one comment carrying `marker`, edited in place. Found again after a create that failed with
 * 5xx/429 (GitHub may have made it), so a retried create never leaves two. An unchanged body is
 * not re-sent.
 */
export async function upsertComment(deps: HostDeps, issueNumber: number, marker: string, body: string): Promise<number> {
  const withMarker = markedBody(marker, body);
  const result = await createOnce<FoundComment>({
    find: () => findMarkedComment(deps, issueNumber, marker),
    create: async () => ({ id: await comment(deps, issueNumber, withMarker), body: withMarker }),
    attempts: deps.createAttempts,
    sleep: deps.sleep,
  });
  if ('created' in result) return result.created.id;
  await editFound(deps, result.found, withMarker);
  return result.found.id;
}

/** The app's comment carrying `marker`, edited (unchanged bodies not re-sent); false when there is none: nothing is created. */
export async function editMarkedComment(deps: HostDeps, issueNumber: number, marker: string, body: string): Promise<boolean> {
  const found = await findMarkedComment(deps, issueNumber, marker);
  if (!found) return false;
  await editFound(deps, found, markedBody(marker, body));
  return true;
}

/** A found comment gets `body`; an unchanged body is not re-sent. */
async function editFound(deps: HostDeps, found: FoundComment, body: string): Promise<void> {
  if (found.body === body) return;
  await call('update comment', () => deps.octokit.rest.issues.updateComment({ owner: deps.owner, repo: deps.repo, comment_id: found.id, body }));
}

const markedBody = (marker: string, body: string) => (body.includes(marker) ? body : `${marker}\n${body}`);

/** Edits a comment whose id is known; false when it is gone (deleted by someone), so the caller upserts. */
export async function updateComment(deps: HostDeps, commentId: number, body: string): Promise<boolean> {
  try {
    await call('update comment', () => deps.octokit.rest.issues.updateComment({ owner: deps.owner, repo: deps.repo, comment_id: commentId, body }));
    return true;
  } catch (error) {
    if (error instanceof GitHubError && error.kind === 'not_found') return false;
    throw error;
  }
}

import { createOnce } from './create-once.js';
import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';
import { NO_RETRY } from './no-retry.js';
import type { ReplyTarget } from './types.js';

/**
 * The PR's review comment (every page) by an app (greenfix posts as one) that replies to
 * `commentId` and contains `marker`. A person's comment carrying the marker never counts: it
 * would let anyone suppress greenfix's reply.
 */
async function findReply(deps: HostDeps, pullNumber: number, commentId: number, marker: string): Promise<number | null> {
  const comments = await call('list review comments', () =>
    deps.octokit.paginate(deps.octokit.rest.pulls.listReviewComments, { owner: deps.owner, repo: deps.repo, pull_number: pullNumber, per_page: 100 }),
  );
  const hit = comments.find((c) => c.in_reply_to_id === commentId && c.user?.type === 'Bot' && (c.body ?? '').includes(marker));
  return hit ? hit.id : null;
}

/**
 * One reply per (thread, marker): `POST /pulls/{n}/comments` with `in_reply_to` once, found again
 * after a create that failed with 5xx/429 or before a resumed job would post it twice. Not
 * `POST /pulls/{n}/comments/{id}/replies`: GitHub's OpenAPI description marks that endpoint as not
 * enabled for GitHub Apps.
 */
export async function replyOnce(deps: HostDeps, pullNumber: number, to: ReplyTarget, marker: string, body: string): Promise<number> {
  const { commentId } = to;
  const withMarker = body.includes(marker) ? body : `${marker}\n${body}`;
  const result = await createOnce<number>({
    find: () => findReply(deps, pullNumber, commentId, marker),
    create: async () => {
      const { data } = await call('reply to review comment', () =>
        deps.octokit.rest.pulls.createReviewComment({ owner: deps.owner, repo: deps.repo, pull_number: pullNumber, in_reply_to: commentId, commit_id: to.commitId, path: to.path, body: withMarker, ...NO_RETRY }),
      );
      return data.id;
    },
    attempts: deps.createAttempts,
    sleep: deps.sleep,
  });
  return 'created' in result ? result.created : result.found;
}

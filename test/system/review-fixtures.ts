import type { FakeReviewComment } from '../support/fake-github.js';
import { examplePayload } from '../triggers/payloads.js';
import { INSTALLATION, type Harness } from './harness.js';
import type { OpenedPull } from './pull-fixtures.js';

/**
 * Pull request reviews as GitHub has them, for the app's end-to-end tests: the review and its
 * inline comments in the fake GitHub (REST and GraphQL answer from them), and the webhooks
 * `pull_request_review.submitted` and `pull_request_review_comment.created` that announce them,
 * built on @octokit/webhooks-examples payloads.
 */

export interface InlineSpec {
  path: string;
  line: number;
  startLine?: number;
  body: string;
  diffHunk: string;
  outdated?: boolean;
}

export interface SubmittedReview {
  id: number;
  comments: FakeReviewComment[];
}

/** A review by `user` on `pr` with inline comments (each a new thread), stored in the fake. */
export function addReview(h: Harness, pr: OpenedPull, user: string, body: string, state: 'COMMENTED' | 'CHANGES_REQUESTED', inline: InlineSpec[]): SubmittedReview {
  const id = h.state.nextId++;
  h.state.reviews.push({ id, pull: pr.number, user, body, state, commitId: pr.headSha });
  const comments = inline.map((c) => addThread(h, pr, user, c, id));
  return { id, comments };
}

/** One inline comment (a new thread), optionally part of a review. */
export function addThread(h: Harness, pr: OpenedPull, user: string, c: InlineSpec, reviewId: number | null = null): FakeReviewComment {
  const comment: FakeReviewComment = {
    id: h.state.nextId++,
    pull: pr.number,
    body: c.body,
    user,
    path: c.path,
    line: c.line,
    startLine: c.startLine ?? null,
    side: 'RIGHT',
    diffHunk: c.diffHunk,
    inReplyTo: null,
    reviewId: reviewId ?? h.state.nextId++,
    commitId: pr.headSha,
    outdated: c.outdated ?? false,
  };
  h.state.reviewComments.push(comment);
  return comment;
}

const pullRequest = (pr: OpenedPull) => ({
  number: pr.number,
  title: `Fix #7: sum is wrong`,
  body: 'A fix by greenfix.',
  state: 'open',
  head: { ref: pr.head, sha: pr.headSha, repo: { id: 1296269 } },
  base: { ref: 'main', repo: { id: 1296269 } },
});

/** `pull_request_review.submitted` for a stored review. */
export function reviewSubmitted(h: Harness, pr: OpenedPull, review: SubmittedReview, sender = 'octocat'): Record<string, unknown> {
  const stored = h.state.reviews.find((r) => r.id === review.id)!;
  return examplePayload('pull_request_review', 'submitted', {
    installation: { id: INSTALLATION },
    repository: h.repository,
    sender: { login: sender, type: 'User', id: 2 },
    review: { id: review.id, body: stored.body, state: stored.state.toLowerCase(), commit_id: pr.headSha, user: { login: sender, type: 'User', id: 2 } },
    pull_request: pullRequest(pr),
  });
}

/** `pull_request_review_comment.created` for a stored comment. */
export function reviewCommentCreated(h: Harness, pr: OpenedPull, comment: FakeReviewComment, sender = 'octocat'): Record<string, unknown> {
  return examplePayload('pull_request_review_comment', 'created', {
    installation: { id: INSTALLATION },
    repository: h.repository,
    sender: { login: sender, type: 'User', id: 2 },
    comment: { id: comment.id, body: comment.body, path: comment.path, line: comment.line, diff_hunk: comment.diffHunk, pull_request_review_id: comment.reviewId, user: { login: sender, type: 'User', id: 2 } },
    pull_request: pullRequest(pr),
  });
}

/** greenfix's replies in the thread of `comment`. */
export function repliesTo(h: Harness, comment: FakeReviewComment): string[] {
  return h.state.reviewComments.filter((c) => c.inReplyTo === comment.id && c.user.endsWith('[bot]')).map((c) => c.body);
}

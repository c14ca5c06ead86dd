import type { FakeGitHubState, FakeReview, FakeReviewComment } from './fake-github-state.js';

/**
 * The fake's pull request reviews, in the shapes of GitHub's API: review comments (REST
 * `GET /pulls/{n}/comments`, replies `POST /pulls/{n}/comments` with `in_reply_to`), reviews
 * (`GET /pulls/{n}/reviews`) and the GraphQL `reviewThreads` query and `resolveReviewThread`
 * mutation. A thread is a first comment and its replies; its GraphQL id is `PRRT_<first id>`.
 */

export const threadId = (rootId: number): string => `PRRT_${rootId}`;

function userJson(login: string) {
  return { login, id: 1, type: login.endsWith('[bot]') ? 'Bot' : 'User' };
}

/** A review comment as the REST API answers it. */
export function reviewCommentJson(s: FakeGitHubState, c: FakeReviewComment) {
  const root = rootOf(s, c);
  return {
    id: c.id,
    node_id: `PRRC_${c.id}`,
    pull_request_review_id: c.reviewId,
    in_reply_to_id: c.inReplyTo ?? undefined,
    diff_hunk: c.diffHunk,
    path: c.path,
    line: root.outdated ? null : c.line,
    original_line: c.line,
    start_line: c.startLine,
    original_start_line: c.startLine,
    side: c.side,
    start_side: c.startLine === null ? null : c.side,
    commit_id: c.commitId,
    original_commit_id: c.commitId,
    user: userJson(c.user),
    body: c.body,
    html_url: `https://github.com/${s.owner}/${s.repo}/pull/${c.pull}#discussion_r${c.id}`,
  };
}

export function reviewJson(s: FakeGitHubState, r: FakeReview) {
  return { id: r.id, node_id: `PRR_${r.id}`, user: userJson(r.user), body: r.body, state: r.state, commit_id: r.commitId, html_url: `https://github.com/${s.owner}/${s.repo}/pull/${r.pull}#pullrequestreview-${r.id}` };
}

function rootOf(s: FakeGitHubState, c: FakeReviewComment): FakeReviewComment {
  return c.inReplyTo === null ? c : (s.reviewComments.find((x) => x.id === c.inReplyTo) ?? c);
}

/** `POST /pulls/{n}/comments` with `in_reply_to`: GitHub threads a reply to a reply under the first comment. */
export function addReply(s: FakeGitHubState, pull: number, commentId: number, body: string): FakeReviewComment | null {
  const to = s.reviewComments.find((c) => c.id === commentId && c.pull === pull);
  if (!to) return null;
  const root = rootOf(s, to);
  const reply: FakeReviewComment = { ...root, id: s.nextId++, body, user: `${s.appSlug}[bot]`, inReplyTo: root.id, reviewId: s.nextId++, outdated: false };
  s.reviewComments.push(reply);
  return reply;
}

/** Answers a GraphQL request: the two operations greenfix sends, else a GraphQL error. */
export function answerGraphql(s: FakeGitHubState, body: { query?: string; variables?: Record<string, unknown> }): { status: number; body: unknown } {
  const query = body.query ?? '';
  const vars = body.variables ?? {};
  if (/resolveReviewThread\s*\(/.test(query)) {
    const id = String(vars['threadId']);
    const exists = s.reviewComments.some((c) => c.inReplyTo === null && threadId(c.id) === id);
    if (!exists) return { status: 200, body: { data: null, errors: [{ type: 'NOT_FOUND', path: ['resolveReviewThread'], message: `Could not resolve to a node with the global id of '${id}'` }] } };
    if (!s.resolvedThreads.includes(id)) s.resolvedThreads.push(id);
    return { status: 200, body: { data: { resolveReviewThread: { thread: { id, isResolved: true } } } } };
  }
  if (/reviewThreads\s*\(/.test(query)) {
    const number = Number(vars['number']);
    const mine = vars['owner'] === s.owner && vars['name'] === s.repo;
    if (!mine || !s.pulls.some((p) => p.number === number)) {
      return { status: 200, body: { data: { repository: mine ? { pullRequest: null } : null }, errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a PullRequest' }] } };
    }
    const roots = s.reviewComments.filter((c) => c.pull === number && c.inReplyTo === null).sort((a, b) => a.id - b.id);
    const nodes = roots.map((root) => {
      const comments = s.reviewComments.filter((c) => c.id === root.id || c.inReplyTo === root.id).sort((a, b) => a.id - b.id);
      return {
        id: threadId(root.id),
        path: root.path,
        line: root.outdated ? null : root.line,
        startLine: root.outdated ? null : root.startLine,
        originalLine: root.line,
        originalStartLine: root.startLine,
        diffSide: root.side,
        isOutdated: root.outdated,
        isResolved: s.resolvedThreads.includes(threadId(root.id)),
        comments: {
          nodes: comments.map((c) => ({ databaseId: c.id, body: c.body, diffHunk: c.diffHunk, author: { login: c.user.replace(/\[bot\]$/, '') }, pullRequestReview: c.reviewId === null ? null : { databaseId: c.reviewId } })),
        },
      };
    });
    return { status: 200, body: { data: { repository: { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } } } } } };
  }
  return { status: 200, body: { errors: [{ message: 'fake GitHub: unknown GraphQL operation' }] } };
}

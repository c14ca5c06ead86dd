import * as z from 'zod';
import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';
import type { ReviewThread } from './types.js';

const THREADS_QUERY = `query($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id path line startLine originalLine originalStartLine diffSide isOutdated isResolved
          comments(first: 100) { nodes { databaseId body diffHunk author { login } pullRequestReview { databaseId } } }
        }
      }
    }
  }
}`;

const RESOLVE_MUTATION = `mutation($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

const Thread = z.object({
  id: z.string(),
  path: z.string(),
  line: z.number().int().nullable(),
  startLine: z.number().int().nullable(),
  originalLine: z.number().int().nullable(),
  originalStartLine: z.number().int().nullable(),
  diffSide: z.enum(['LEFT', 'RIGHT']),
  isOutdated: z.boolean(),
  isResolved: z.boolean(),
  comments: z.object({
    nodes: z.array(
      z.object({
        databaseId: z.number().int(),
        body: z.string(),
        diffHunk: z.string(),
        author: z.object({ login: z.string() }).nullable(),
        pullRequestReview: z.object({ databaseId: z.number().int().nullable() }).nullable(),
      }),
    ),
  }),
});

const ThreadsPage = z.object({
  repository: z.object({
    pullRequest: z.object({
      reviewThreads: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
        nodes: z.array(Thread),
      }),
    }),
  }),
});

/** At most this many pages of 100 threads: a PR with more is not one a model can answer anyway. */
const MAX_PAGES = 10;

/** Every review thread of a pull request, with its first 100 comments each. */
export async function reviewThreads(deps: HostDeps, pullNumber: number): Promise<ReviewThread[]> {
  const threads: ReviewThread[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const raw = await call('list review threads', () => deps.octokit.graphql(THREADS_QUERY, { owner: deps.owner, name: deps.repo, number: pullNumber, cursor }));
    const connection = ThreadsPage.parse(raw).repository.pullRequest.reviewThreads;
    for (const t of connection.nodes) {
      threads.push({
        id: t.id,
        path: t.path,
        line: t.line,
        startLine: t.startLine,
        originalLine: t.originalLine,
        originalStartLine: t.originalStartLine,
        side: t.diffSide,
        isOutdated: t.isOutdated,
        isResolved: t.isResolved,
        comments: t.comments.nodes.map((c) => ({ id: c.databaseId, author: c.author?.login ?? null, body: c.body, diffHunk: c.diffHunk, reviewId: c.pullRequestReview?.databaseId ?? null })),
      });
    }
    if (!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor) break;
    cursor = connection.pageInfo.endCursor;
  }
  return threads;
}

export async function resolveReviewThread(deps: HostDeps, threadId: string): Promise<void> {
  await call('resolve review thread', () => deps.octokit.graphql(RESOLVE_MUTATION, { threadId }));
}

import type { ReviewThread } from '../github/types.js';
import type { JobRequest } from '../triggers/types.js';

/**
 * The review threads a job answers, in a stable order (by first comment id: thread numbers in the
 * task and in the model's summary mean the same threads when the job resumes and reads them
 * again). A review job answers its review's threads, or the one thread of its review comment;
 * `/agent retry` on a PR answers every unresolved thread. Other jobs answer none.
 */
export function addressedThreads(request: JobRequest, threads: ReviewThread[]): ReviewThread[] {
  const chosen = threads.filter((thread) => isAddressed(request, thread));
  return chosen.sort((a, b) => firstId(a) - firstId(b));
}

function isAddressed(request: JobRequest, thread: ReviewThread): boolean {
  const scope = request.review;
  if (request.kind === 'review' && scope?.commentId !== undefined) return thread.comments.some((c) => c.id === scope.commentId);
  if (request.kind === 'review' && scope?.reviewId !== undefined) return thread.comments.some((c) => c.reviewId === scope.reviewId);
  if (request.kind === 'retry' && request.target === 'pull_request') return !thread.isResolved;
  return false;
}

function firstId(thread: ReviewThread): number {
  return thread.comments[0]?.id ?? Number.MAX_SAFE_INTEGER;
}

/** Whether a job reads review threads at all (and the PR's diff that they point at). */
export function readsReviewThreads(request: JobRequest): boolean {
  return request.target === 'pull_request' && (request.kind === 'review' || request.kind === 'retry');
}

import * as z from 'zod';

const Repo = z.object({ repository: z.object({ id: z.number() }), action: z.string() });
const Comment = Repo.extend({ comment: z.object({ id: z.number() }) });
const Review = Repo.extend({ review: z.object({ id: z.number() }) });
const Labeled = Repo.extend({ issue: z.object({ number: z.number(), updated_at: z.string() }), label: z.object({ name: z.string() }) });

/**
 * What a webhook is about, whatever delivery carried it: a signed body replayed under a new
 * delivery id (or redelivered by GitHub) has the same identity, so it is answered once. A comment
 * (issue or review comment) by its id and action, a review by its id, a label event by its issue,
 * label and the issue's time of change (labelling the issue again later changes it). Undefined for
 * events without one (CI events have their own key: dedupe.ts).
 */
export function contentKeyFor(event: string, payload: unknown): string | undefined {
  switch (event) {
    case 'issue_comment':
    case 'pull_request_review_comment': {
      const p = Comment.safeParse(payload);
      return p.success ? `${event}:${p.data.repository.id}:${p.data.comment.id}:${p.data.action}` : undefined;
    }
    case 'pull_request_review': {
      const p = Review.safeParse(payload);
      return p.success ? `${event}:${p.data.repository.id}:${p.data.review.id}` : undefined;
    }
    case 'issues': {
      const p = Labeled.safeParse(payload);
      return p.success ? `${event}:${p.data.repository.id}:${p.data.issue.number}:${p.data.action}:${p.data.label.name}:${p.data.issue.updated_at}` : undefined;
    }
    default:
      return undefined;
  }
}

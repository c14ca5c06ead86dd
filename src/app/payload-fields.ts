import { z } from 'zod';

/** The few payload fields the handler needs beyond the triggers' decision, parsed leniently. */
const Labeled = z.object({
  action: z.string(),
  label: z.object({ name: z.string() }),
  issue: z.object({ number: z.number() }),
  repository: z.object({ id: z.number() }),
});

export function labelOf(payload: unknown): { action: string; name: string; number: number; repoId: number } | null {
  const parsed = Labeled.safeParse(payload);
  if (!parsed.success) return null;
  const { action, label, issue, repository } = parsed.data;
  return { action, name: label.name, number: issue.number, repoId: repository.id };
}

const Commented = z.object({
  issue: z.object({ number: z.number() }).optional(),
  comment: z.object({ id: z.number() }).optional(),
  pull_request: z.object({ number: z.number() }).optional(),
});

/**
 * Where a 👀 goes: the comment that asked, or the issue that was labelled. A review or review
 * comment gets it on its pull request (review comments have reactions of their own, but under
 * another endpoint; the PR is where the status comment appears too).
 */
export function commentIdOf(payload: unknown): { number: number; commentId: number | null } | null {
  const parsed = Commented.safeParse(payload);
  if (!parsed.success) return null;
  if (parsed.data.issue) return { number: parsed.data.issue.number, commentId: parsed.data.comment?.id ?? null };
  return parsed.data.pull_request ? { number: parsed.data.pull_request.number, commentId: null } : null;
}

const RequestedChanges = z.object({ review: z.object({ state: z.string() }) });

/** A `pull_request_review` payload whose review requests changes (the repo config decides whether that is a trigger). */
export function requestsChanges(payload: unknown): boolean {
  const parsed = RequestedChanges.safeParse(payload);
  return parsed.success && parsed.data.review.state.toLowerCase() === 'changes_requested';
}

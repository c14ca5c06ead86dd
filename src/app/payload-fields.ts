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
});

/** Where a 👀 goes: the comment that asked, or the issue that was labelled. */
export function commentIdOf(payload: unknown): { number: number; commentId: number | null } | null {
  const parsed = Commented.safeParse(payload);
  if (!parsed.success || !parsed.data.issue) return null;
  return { number: parsed.data.issue.number, commentId: parsed.data.comment?.id ?? null };
}

import * as z from 'zod';
import { contentKeyFor } from './content-key.js';

/**
 * One delivery, read once (Probot's `Context` is the model): what the triggers decide on and the
 * few fields the handler needs beyond their decision, parsed leniently (GitHub adds fields all the
 * time). The handler builds it once; triggerFor and the handler read the same value.
 */
export interface WebhookEvent {
  /** The event's name (`issues`, not `issues.labeled`). */
  name: string;
  /** The payload's action; undefined when it has none (a malformed or action-less payload). */
  action: string | undefined;
  payload: unknown;
  /** The delivery's repository (its id and owner's login); null when the payload names none. */
  repository: { id: number; owner: string } | null;
  /** An `issues` event's label (labelled or unlabelled), with its issue and repository; else null. */
  label: { action: string; name: string; number: number; repoId: number } | null;
  /**
   * Where a 👀 goes: the comment that asked, or the issue that was labelled. A review or review
   * comment gets it on its pull request (review comments have reactions of their own, but under
   * another endpoint; the PR is where the status comment appears too).
   */
  reactTarget: { number: number; commentId: number | null } | null;
  /** A `pull_request_review` whose review requests changes (the repo config decides whether that is a trigger). */
  requestsChanges: boolean;
  /** What the delivery is about, whatever delivery id carried it (content-key.ts); undefined for events without one. */
  contentKey: string | undefined;
}

const Labeled = z.object({
  action: z.string(),
  label: z.object({ name: z.string() }),
  issue: z.object({ number: z.number() }),
  repository: z.object({ id: z.number() }),
});

const Commented = z.object({
  issue: z.object({ number: z.number() }).optional(),
  comment: z.object({ id: z.number() }).optional(),
  pull_request: z.object({ number: z.number() }).optional(),
});

const InRepository = z.object({ repository: z.object({ id: z.number(), owner: z.object({ login: z.string() }) }) });

const Reviewed = z.object({ review: z.object({ state: z.string() }) });

/** Reads a delivery once into the value triggers and the handler share. Never throws. */
export function webhookEvent(name: string, payload: unknown): WebhookEvent {
  return {
    name,
    action: actionOf(payload),
    payload,
    repository: repositoryOf(payload),
    label: name === 'issues' ? labelOf(payload) : null,
    reactTarget: reactTargetOf(payload),
    requestsChanges: name === 'pull_request_review' && requestsChanges(payload),
    contentKey: contentKeyFor(name, payload),
  };
}

function actionOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const action = (payload as { action?: unknown }).action;
  return typeof action === 'string' ? action : undefined;
}

function repositoryOf(payload: unknown): WebhookEvent['repository'] {
  const parsed = InRepository.safeParse(payload);
  return parsed.success ? { id: parsed.data.repository.id, owner: parsed.data.repository.owner.login } : null;
}

function labelOf(payload: unknown): WebhookEvent['label'] {
  const parsed = Labeled.safeParse(payload);
  if (!parsed.success) return null;
  const { action, label, issue, repository } = parsed.data;
  return { action, name: label.name, number: issue.number, repoId: repository.id };
}

function reactTargetOf(payload: unknown): WebhookEvent['reactTarget'] {
  const parsed = Commented.safeParse(payload);
  if (!parsed.success) return null;
  if (parsed.data.issue) return { number: parsed.data.issue.number, commentId: parsed.data.comment?.id ?? null };
  return parsed.data.pull_request ? { number: parsed.data.pull_request.number, commentId: null } : null;
}

function requestsChanges(payload: unknown): boolean {
  const parsed = Reviewed.safeParse(payload);
  return parsed.success && parsed.data.review.state.toLowerCase() === 'changes_requested';
}

import type * as z from 'zod';
import type { BasePayload, PullRequestRef } from './payload-schemas.js';
import type { Refusal, RepoRef, TriggerContext, TriggerResult } from './types.js';

/** The model only needs the start of a body; a megabyte of pasted logs must not reach the queue. */
export const MAX_BODY_CHARS = 65_536;

/** Parses `payload` or says why not, as an `ignored` result (never a throw: GitHub decides what it sends). */
export function parsePayload<T extends z.ZodType>(
  event: string,
  schema: T,
  payload: unknown,
): { ok: true; data: z.infer<T> } | { ok: false; result: TriggerResult } {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return { ok: true, data: parsed.data };
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return { ok: false, result: ignored(`malformed ${event} payload: ${where}${first?.message ?? 'invalid'}`) };
}

export function ignored(reason: string): TriggerResult {
  return { type: 'ignored', reason };
}

export function repoRef(payload: BasePayload): RepoRef {
  const r = payload.repository;
  return { id: r.id, owner: r.owner.login, name: r.name, cloneUrl: r.clone_url, defaultBranch: r.default_branch };
}

/** A GitHub App or another automation account; `[bot]` covers apps whose type a proxy lost. */
export function isBot(sender: BasePayload['sender']): boolean {
  return sender.type === 'Bot' || sender.login.toLowerCase().endsWith('[bot]');
}

export function isSelf(sender: BasePayload['sender'], ctx: TriggerContext): boolean {
  return sender.login.toLowerCase() === ctx.botLogin.toLowerCase();
}

export function capBody(body: string | null | undefined): string {
  const text = body ?? '';
  if (text.length <= MAX_BODY_CHARS) return text;
  return `${text.slice(0, MAX_BODY_CHARS)}\n\n[greenfix: the body was cut at ${MAX_BODY_CHARS} characters of ${text.length}]`;
}

/** The first PR of this very repository (head and base): fork PRs and other repositories' PRs are not ours. */
export function sameRepoPullRequest(prs: PullRequestRef[], repoId: number): PullRequestRef | undefined {
  return prs.find((pr) => pr.head.repo.id === repoId && pr.base.repo.id === repoId);
}

/** A PR into this repository from another one (a fork). */
export function forkPullRequest(prs: PullRequestRef[], repoId: number): PullRequestRef | undefined {
  return prs.find((pr) => pr.base.repo.id === repoId && pr.head.repo.id !== repoId);
}

/** Asking for a fix of a closed issue or PR is answered (never silence), not run. */
export function closedRefusal(base: Omit<Refusal, 'code' | 'message'>, target: 'issue' | 'pull_request'): TriggerResult {
  const what = target === 'issue' ? 'issue' : 'pull request';
  return {
    type: 'refuse',
    refusal: { ...base, code: 'closed', message: `This ${what} is closed, so greenfix will not work on it. Reopen it first, then ask again.` },
  };
}

export const FAILED_CONCLUSIONS: ReadonlySet<string> = new Set(['failure', 'timed_out']);

import { defaultRepoConfig } from '../config/repo-config.js';
import { CONFIG_ERRORS_MARKER, renderConfigProblems } from '../config/render-config-problems.js';
import { renderRefusal } from '../github/render-refusal.js';
import type { GitHost } from '../github/types.js';
import type { JobQueue } from '../queue/types.js';
import { subjectKey, type JobRequest, type Refusal } from '../triggers/types.js';
import type { RefusalLimiter } from './refusal-limiter.js';

/**
 * The one answer a command from someone without write access gets, once per issue whoever they
 * are and however many they send; no mention, so it pings nobody.
 */
export const OUTSIDER_REPLY =
  '👋 greenfix only takes `/agent` commands from people with write access to this repository, so I did nothing.\n\n<sub>greenfix · outsider</sub>';

/** Where a refusal is said: the delivery's repository, the queue's "say it once" notes, the per-repository cap. */
export interface RefusalDeps {
  host: GitHost;
  queue: Pick<JobQueue, 'noteOnce'>;
  refusals: RefusalLimiter;
}

export interface Answer {
  result: 'refused';
  detail: string;
}

/** A refusal comment, once per issue, reason and sender, under the repository's refusal rate limit. */
export async function answerRefusal(deps: RefusalDeps, refusal: Refusal): Promise<Answer> {
  const detail = `${refusal.code}: ${refusal.message}`;
  if (refusal.number <= 0) return { result: 'refused', detail: `${detail} (no issue or PR to answer on)` };
  if (await deps.queue.noteOnce(`refuse:${subjectKey(refusal.repo, refusal.number)}:${refusal.code}:${refusal.sender}`)) {
    if (!deps.refusals.allow(String(refusal.repo.id))) return { result: 'refused', detail: `${detail} (not answered: refusal rate limit of the repository)` };
    await deps.host.comment(refusal.number, renderRefusal(refusal.code, { sender: refusal.sender, message: refusal.message }));
  }
  return { result: 'refused', detail };
}

/** A command from someone without write access: one short reply per issue in total, rate-limited. */
export async function answerOutsider(deps: RefusalDeps, request: Pick<JobRequest, 'repo' | 'number' | 'sender'>): Promise<Answer> {
  const detail = `unauthorized: ${request.sender} has no write access`;
  if (request.number > 0 && (await deps.queue.noteOnce(`outsider:${subjectKey(request.repo, request.number)}`))) {
    if (!deps.refusals.allow(String(request.repo.id))) return { result: 'refused', detail: `${detail} (not answered: refusal rate limit of the repository)` };
    await deps.host.comment(request.number, OUTSIDER_REPLY);
  }
  return { result: 'refused', detail };
}

/**
 * A label delivery whose repository config is invalid: the problems, once per issue and set of
 * problems, on the default label only (an invalid config cannot say which label it meant), under
 * the refusal rate limit. Nothing starts.
 */
export async function answerConfigProblems(deps: RefusalDeps, label: { name: string; repoId: number; number: number }, problems: string[]): Promise<Answer> {
  if (label.name === defaultRepoConfig().label) {
    const key = `config:${label.repoId}#${label.number}:${problems.join('|')}`;
    if ((await deps.queue.noteOnce(key)) && deps.refusals.allow(String(label.repoId))) await deps.host.upsertComment(label.number, CONFIG_ERRORS_MARKER, renderConfigProblems(problems));
  }
  return { result: 'refused', detail: `invalid .github/greenfix.yml: ${problems.length} problem(s)` };
}

/** The refusal a label (or another non-command) from a sender without write access gets. */
export function unauthorizedRefusal(request: Pick<JobRequest, 'installationId' | 'repo' | 'number' | 'sender'>, permission: string): Refusal {
  return {
    installationId: request.installationId,
    repo: request.repo,
    number: request.number,
    sender: request.sender,
    code: 'unauthorized',
    message: `@${request.sender} has ${permission} permission; write, maintain or admin is needed`,
  };
}

import type { RepoConfig } from '../config/repo-config.js';
import type { GitHost } from '../github/types.js';
import type { JobQueue } from '../queue/types.js';
import type { JobRequest } from '../triggers/types.js';
import { utcMinute } from './cap-window.js';

const HOUR_MS = 3_600_000;
/** How often a job held by `limits.open_prs` checks again: GitHub sends no event greenfix could wait for cheaply. */
export const OPEN_PRS_RECHECK_MS = 15 * 60_000;

/** A job that would open a PR over a limit: which limit, how many count against it, when to check again. */
export interface PrLimitWait {
  limit: 'open_prs' | 'prs_per_hour';
  max: number;
  count: number;
  /** Epoch ms: when the job is claimed again (and checks again). */
  runAfter: number;
  /** Why, the check time first (the status line is clipped from the end): the status comment's and the queue's reason. */
  sentence: string;
}

export interface PrLimitInput {
  request: JobRequest;
  /** The branch the job pushes (its target's). */
  branch: string;
  config: RepoConfig;
  host: Pick<GitHost, 'openPullRequestsFrom'>;
  queue: Pick<JobQueue, 'pullRequestsOpenedSince'>;
  now: number;
}

/**
 * `limits` of the repository config, for a job that would open a NEW pull request: an issue job
 * whose branch has no open PR yet (a retry of it, or a resumed job that opened it already, only
 * updates that PR). Open greenfix PRs come from GitHub (one listing), the PRs opened in the last
 * hour from the queue's records. null: the job may go on. Over both: the later wait.
 */
export async function prLimitWait(input: PrLimitInput): Promise<PrLimitWait | null> {
  const { request, config, now } = input;
  const { open_prs: maxOpen, prs_per_hour: maxPerHour } = config.limits;
  if (request.kind === 'doctor' || request.target !== 'issue' || (maxOpen === undefined && maxPerHour === undefined)) return null;
  const open = await input.host.openPullRequestsFrom(config.branch_prefix);
  if (open.some((pr) => pr.headRef === input.branch)) return null;
  const waits: PrLimitWait[] = [];
  if (maxPerHour !== undefined) {
    // The last hour: opened after now − 1 h. Under the limit again once the oldest PR that keeps
    // the count at `max` is an hour old.
    const opened = await input.queue.pullRequestsOpenedSince(String(request.repo.id), now - HOUR_MS + 1);
    if (opened.length >= maxPerHour) waits.push(perHour(maxPerHour, opened.length, opened[opened.length - maxPerHour]! + HOUR_MS));
  }
  if (maxOpen !== undefined && open.length >= maxOpen) waits.push(openPrs(maxOpen, open.length, now + OPEN_PRS_RECHECK_MS));
  return waits.sort((a, b) => b.runAfter - a.runAfter)[0] ?? null;
}

function perHour(max: number, count: number, runAfter: number): PrLimitWait {
  const sentence = `the limit of ${plural(max, 'new pull request')} per hour (\`limits.prs_per_hour\`) is reached (it checks again at ${minuteAfter(runAfter)}): greenfix opened ${count} in the last hour`;
  return { limit: 'prs_per_hour', max, count, runAfter, sentence };
}

function openPrs(max: number, count: number, runAfter: number): PrLimitWait {
  const minutes = OPEN_PRS_RECHECK_MS / 60_000;
  const sentence = `the limit of ${plural(max, 'open greenfix pull request')} (\`limits.open_prs\`) is reached (it checks again at ${minuteAfter(runAfter)}, then every ${minutes} minutes): ${count} ${count === 1 ? 'is' : 'are'} open`;
  return { limit: 'open_prs', max, count, runAfter, sentence };
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** `2026-12-01 15:04 UTC`, rounded up to the minute: never earlier than the check. */
export const minuteAfter = (at: number): string => utcMinute(Math.ceil(at / 60_000) * 60_000);

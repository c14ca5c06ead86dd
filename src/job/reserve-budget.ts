import { DEFAULT_JOB_RESERVE_USD } from '../config/operator-caps.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { Claimed } from '../queue/types.js';
import type { JobRunResult } from '../worker/worker-types.js';
import { capReachedSentence, reserveOverCapSentence } from './cap-sentence.js';
import type { JobEnv } from './env.js';
import { jobCaps } from './caps.js';
import type { JobReporter } from './reporter.js';

export type BudgetVerdict =
  /** Run, with this config: under caps its `max_cost_usd` is the reservation, so the caps hold. */
  | { run: true; config: RepoConfig }
  /** Not now (deferred) or never (failed); the status comment already says why. */
  | { run: false; result: JobRunResult; outcome: 'deferred' | 'cap_refused' };

/**
 * Before any model call: reserve the job's budget under the caps that apply (none set: nothing to
 * do). Over a cap, the status comment names the cap, the spend and the reset, and the job waits
 * for the window to reset, or fails with `caps.on_reached: refuse`.
 */
export async function reserveBudget(env: JobEnv, claimed: Claimed, config: RepoConfig, reporter: JobReporter): Promise<BudgetVerdict> {
  const { request } = claimed.job;
  // No operator caps: a repository's own still apply, with the default reservation.
  const planned = jobCaps(env.caps ?? { jobReserveUsd: DEFAULT_JOB_RESERVE_USD }, config, request, env.now());
  if (!planned) return { run: true, config };
  env.onCaps?.(planned.caps, `${request.repo.owner}/${request.repo.name}`);
  const never = planned.caps.find((cap) => planned.usd > cap.limitUsd);
  if (never) return refuse(reporter, `greenfix did not run: ${reserveOverCapSentence(never, planned.usd, planned.source)}.`);
  const answer = await env.queue.reserve(claimed.lease, { usd: planned.usd, caps: planned.caps });
  if (answer.ok) return { run: true, config: { ...config, max_cost_usd: planned.usd } };
  const sentence = capReachedSentence(answer, planned.usd);
  env.log.info({ jobId: claimed.job.id, cap: answer.cap, spentUsd: answer.spentUsd, reservedUsd: answer.reservedUsd, resetsAt: answer.resetsAt }, 'over a spend cap');
  if (config.caps.on_reached === 'refuse') return refuse(reporter, `greenfix did not run: ${sentence} (\`caps.on_reached: refuse\`).`);
  await reporter.phase('queued', 'running', `waiting: ${sentence}`);
  return { run: false, outcome: 'deferred', result: { type: 'deferred', runAfter: answer.resetsAt, reason: sentence } };
}

async function refuse(reporter: JobReporter, sentence: string): Promise<BudgetVerdict> {
  await reporter.finish({ status: 'failed', sentence });
  return { run: false, outcome: 'cap_refused', result: { type: 'failed', message: sentence, retryable: false } };
}

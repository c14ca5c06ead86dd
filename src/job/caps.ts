import type { OperatorCaps } from '../config/operator-caps.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { SpendCap } from '../queue/types.js';
import type { JobRequest } from '../triggers/types.js';
import { capWindow } from './cap-window.js';

/** The caps a job runs under and what it reserves against them; none set: nothing to reserve. */
export interface JobCaps {
  caps: SpendCap[];
  /** USD the job reserves, and the money budget it then runs with (so the caps hold). */
  usd: number;
  /** Where `usd` came from, for the sentence when it alone is over a cap. */
  source: 'max_cost_usd' | 'reserve';
}

/**
 * The effective caps of a job at `now`: the operator's, lowered by the repository's (the smaller of
 * the two applies; a repository cannot raise the operator's), the installation's monthly one from
 * the operator only. Monthly caps come first, so of two caps reached the job waits for the later
 * reset once. The reservation is `max_cost_usd` when set, else the operator's default, lowered to
 * the smallest cap (a repository with `daily_usd: 0.5` still runs jobs).
 */
export function jobCaps(operator: OperatorCaps, config: RepoConfig, request: JobRequest, now: number): JobCaps | null {
  const repoKey = String(request.repo.id);
  const lower = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
  const wanted: Array<[SpendCap['scope'], string, SpendCap['window'], number | undefined]> = [
    ['installation', String(request.installationId), 'month', operator.installationMonthlyUsd],
    ['repo', repoKey, 'month', lower(operator.repoMonthlyUsd, config.caps.monthly_usd)],
    ['repo', repoKey, 'day', lower(operator.repoDailyUsd, config.caps.daily_usd)],
  ];
  const caps = wanted.flatMap(([scope, key, window, limitUsd]) => (limitUsd === undefined ? [] : [{ scope, key, window, limitUsd, ...capWindow(window, now) }]));
  if (caps.length === 0) return null;
  if (config.max_cost_usd !== undefined) return { caps, usd: config.max_cost_usd, source: 'max_cost_usd' };
  return { caps, usd: Math.min(operator.jobReserveUsd, ...caps.map((c) => c.limitUsd)), source: 'reserve' };
}

/**
 * The operator's spend caps over time (GREENFIX_REPO_DAILY_USD, GREENFIX_REPO_MONTHLY_USD,
 * GREENFIX_INSTALLATION_MONTHLY_USD), and what a job reserves against them when it has no
 * `max_cost_usd` (GREENFIX_JOB_RESERVE_USD). Unset caps do not apply.
 */
export interface OperatorCaps {
  repoDailyUsd?: number;
  repoMonthlyUsd?: number;
  installationMonthlyUsd?: number;
  jobReserveUsd: number;
}

/** GREENFIX_JOB_RESERVE_USD's default: a typical fix with a mid-priced model costs well under it. */
export const DEFAULT_JOB_RESERVE_USD = 1;

/** The operator's caps that are set, each with its variable's name (for the problems that name them). */
export function setCaps(caps: OperatorCaps): Array<{ variable: string; usd: number }> {
  const named: Array<[string, number | undefined]> = [
    ['GREENFIX_REPO_DAILY_USD', caps.repoDailyUsd],
    ['GREENFIX_REPO_MONTHLY_USD', caps.repoMonthlyUsd],
    ['GREENFIX_INSTALLATION_MONTHLY_USD', caps.installationMonthlyUsd],
  ];
  return named.flatMap(([variable, usd]) => (usd === undefined ? [] : [{ variable, usd }]));
}

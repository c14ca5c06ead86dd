import type { PullRequestRecord, PullRequestTotals, QueueStats, RepoStats } from './types.js';

/** What a store reads for one repository; the ratio and the totals are computed the same way for both stores. */
export type RepoFigures = Omit<RepoStats, 'costPerMergedPrUsd'>;

/** Spend ÷ merged PRs; null when none merged or nothing priced was spent (unknown is not zero). */
export function costPerMergedPr(spendUsd: number, merged: number): number | null {
  return merged > 0 && spendUsd > 0 ? spendUsd / merged : null;
}

/** Per-repository figures → stats: each repository's ratio, the totals, repositories by name (unnamed last). */
export function queueStats(rows: readonly RepoFigures[]): QueueStats {
  const repos = rows
    .map((r): RepoStats => ({ ...r, costPerMergedPrUsd: costPerMergedPr(r.spendUsd, r.merged) }))
    .sort((a, b) => (a.repo ?? '\uffff').localeCompare(b.repo ?? '\uffff') || a.repoKey.localeCompare(b.repoKey));
  const sum = (pick: (r: RepoFigures) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const spendUsd = sum((r) => r.spendUsd);
  const merged = sum((r) => r.merged);
  const total: PullRequestTotals = { spendUsd, opened: sum((r) => r.opened), merged, costPerMergedPrUsd: costPerMergedPr(spendUsd, merged) };
  return { repos, total };
}

/** The record's own fields only (named parameters must match exactly), validated. */
export function checkedRecord(record: PullRequestRecord): PullRequestRecord {
  if (!Number.isInteger(record.number) || record.number < 1) throw new RangeError(`a pull request number is a positive integer, got ${record.number}`);
  if (record.repoKey === '' || record.repo === '' || record.jobId === '') throw new RangeError('a pull request record needs its repository key, name and job id');
  return { repoKey: record.repoKey, repo: record.repo, number: record.number, jobId: record.jobId };
}

import { formatUsd } from '../model/cost.js';
import type { PullRequestTotals, QueueStats } from '../queue/types.js';

/** Why a figure has no number: said in words, never as $0.00. */
const UNKNOWN = 'cost unknown';
const NONE_MERGED = 'none merged';

/** Spend as a person reads it: a priced amount, or "cost unknown" where nothing priced was recorded. */
function spendCell(t: PullRequestTotals): string {
  return t.spendUsd > 0 ? formatUsd(t.spendUsd) : UNKNOWN;
}

function perMergedCell(t: PullRequestTotals): string {
  if (t.merged === 0) return NONE_MERGED;
  return t.costPerMergedPrUsd === null ? UNKNOWN : formatUsd(t.costPerMergedPrUsd);
}

/**
 * `greenfix stats` for a terminal: one row per repository and the total, columns aligned, and a
 * line on what "cost per merged PR" means and, when some cost is unknown, why.
 */
export function renderStatsTable(stats: QueueStats, window: string): string[] {
  const header = ['repository', 'spend', 'PRs opened', 'PRs merged', 'cost per merged PR'];
  const row = (name: string, t: PullRequestTotals) => [name, spendCell(t), String(t.opened), String(t.merged), perMergedCell(t)];
  const rows = [header, ...stats.repos.map((r) => row(r.repo ?? `repository id ${r.repoKey}`, r)), row('total', stats.total)];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  // Names left-aligned, figures right-aligned.
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const out = [`greenfix stats, ${window}`, '', line(rows[0]!), ...rows.slice(1, -1).map(line), line(widths.map((w) => '-'.repeat(w))), line(rows.at(-1)!), ''];
  if (stats.repos.length === 0) out.push('Nothing recorded in this window: no model spend, no pull requests.');
  out.push('cost per merged PR = all model spend recorded for the repository (every job, failed ones too) / its merged greenfix PRs.');
  if ([stats.total, ...stats.repos].some((t) => t.spendUsd === 0)) {
    out.push(`${UNKNOWN}: no priced model usage was recorded (a model without a price in GREENFIX_PRICES costs an unknown amount, not $0).`);
  }
  return out;
}

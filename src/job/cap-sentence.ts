import { formatUsd } from '../model/cost.js';
import type { SpendCap } from '../queue/types.js';
import { utcMinute } from './cap-window.js';

/** "the repository's daily cap of $5.00" */
export function capName(cap: SpendCap): string {
  const whose = cap.scope === 'repo' ? "the repository's" : "the installation's";
  return `${whose} ${cap.window === 'day' ? 'daily' : 'monthly'} cap of ${formatUsd(cap.limitUsd)}`;
}

/**
 * Why a job does not start now: the cap, the spend in its window (and what running jobs hold), the
 * reservation that does not fit, and when the window resets.
 * "the repository's daily cap of $5.00 is reached (it resets at 2026-12-02 00:00 UTC): $5.12 spent today", or
 * "… has no room for this job (it resets at …): $4.60 spent today, and this job reserves $1.00"
 */
export function capReachedSentence(refusal: { cap: SpendCap; spentUsd: number; reservedUsd: number; resetsAt: number }, usd: number): string {
  const when = refusal.cap.window === 'day' ? 'today' : 'this month';
  const held = refusal.reservedUsd > 0 ? ` (${formatUsd(refusal.reservedUsd)} more held by running jobs)` : '';
  const reached = refusal.spentUsd + refusal.reservedUsd >= refusal.cap.limitUsd;
  const state = reached ? 'is reached' : 'has no room for this job';
  const reserve = reached ? '' : `, and this job reserves ${formatUsd(usd)}`;
  // The reset comes early: a status line is clipped at 200 characters, from the end.
  return `${capName(refusal.cap)} ${state} (it resets at ${utcMinute(refusal.resetsAt)}): ${formatUsd(refusal.spentUsd)} spent ${when}${held}${reserve}`;
}

/** A reservation larger than a cap never fits: the job cannot start in any window. */
export function reserveOverCapSentence(cap: SpendCap, usd: number, source: 'max_cost_usd' | 'reserve'): string {
  const what = source === 'max_cost_usd' ? `\`max_cost_usd\` (${formatUsd(usd)})` : `the default reservation (${formatUsd(usd)})`;
  return `${what} is more than ${capName(cap)}, so this job could never start: lower \`max_cost_usd\` or raise the cap`;
}

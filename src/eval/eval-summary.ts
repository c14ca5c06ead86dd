import type { EvalRecord } from './eval-record.js';

/** An eval's figures: what a maintainer reads first. Rates are of all instances run. */
export interface EvalSummary {
  model: string;
  instances: number;
  resolved: number;
  verifiedWrong: number;
  notVerified: number;
  errors: number;
  /** resolved / instances (0 when there are none). */
  resolvedRate: number;
  verifiedWrongRate: number;
  /** Instances without a verified tree, by the agent's ending (gave_up, budget_exhausted…); errors as `error`. */
  refusals: Record<string, number>;
  /** USD over all instances; null when any instance's cost is unknown. */
  costUsd: number | null;
  costPerInstance: number | null;
  /** null when nothing resolved or the cost is unknown. */
  costPerResolved: number | null;
  tokens: { prompt: number; completion: number };
  steps: { total: number; mean: number };
  requests: number;
  wallMs: { total: number; mean: number };
}

/** The figures of one eval's records. */
export function summarise(records: readonly EvalRecord[]): EvalSummary {
  const n = records.length;
  const count = (status: EvalRecord['status']) => records.filter((r) => r.status === status).length;
  const resolved = count('resolved');
  const refusals: Record<string, number> = {};
  for (const r of records) {
    if (r.status !== 'not_verified' && r.status !== 'error') continue;
    const key = r.status === 'error' ? 'error' : (r.agentStatus ?? 'unknown');
    refusals[key] = (refusals[key] ?? 0) + 1;
  }
  const known = records.every((r) => r.costUsd !== null || r.status === 'error');
  const costUsd = n > 0 && known ? records.reduce((s, r) => s + (r.costUsd ?? 0), 0) : null;
  const sum = (f: (r: EvalRecord) => number) => records.reduce((s, r) => s + f(r), 0);
  const steps = sum((r) => r.steps);
  const wall = sum((r) => r.wallMs);
  return {
    model: records[0]?.model ?? '—',
    instances: n,
    resolved,
    verifiedWrong: count('verified_wrong'),
    notVerified: count('not_verified'),
    errors: count('error'),
    resolvedRate: n === 0 ? 0 : resolved / n,
    verifiedWrongRate: n === 0 ? 0 : count('verified_wrong') / n,
    refusals,
    costUsd,
    costPerInstance: costUsd === null ? null : costUsd / n,
    costPerResolved: costUsd === null || resolved === 0 ? null : costUsd / resolved,
    tokens: { prompt: sum((r) => r.tokens.prompt), completion: sum((r) => r.tokens.completion) },
    steps: { total: steps, mean: n === 0 ? 0 : steps / n },
    requests: sum((r) => r.requests),
    wallMs: { total: wall, mean: n === 0 ? 0 : wall / n },
  };
}

/** "42.0 %" */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}

/** "$0.0123", or "unknown". */
export function usd(value: number | null): string {
  return value === null ? 'unknown' : `$${value.toFixed(4)}`;
}

/** The summary as rows of (label, value), shared by the Markdown and HTML reports and the comparison. */
export function summaryRows(s: EvalSummary): Array<[string, string]> {
  const refusals = Object.entries(s.refusals).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  return [
    ['model', s.model],
    ['instances', String(s.instances)],
    ['resolved', `${s.resolved} (${percent(s.resolvedRate)})`],
    ['verified but wrong', `${s.verifiedWrong} (${percent(s.verifiedWrongRate)})`],
    ['not verified', String(s.notVerified)],
    ['errors', String(s.errors)],
    ['no verified tree, by reason', refusals],
    ['cost', usd(s.costUsd)],
    ['cost per instance', usd(s.costPerInstance)],
    ['cost per resolved instance', usd(s.costPerResolved)],
    ['tokens (prompt / completion)', `${s.tokens.prompt.toLocaleString('en-US')} / ${s.tokens.completion.toLocaleString('en-US')}`],
    ['steps (mean)', s.steps.mean.toFixed(1)],
    ['model requests', String(s.requests)],
    ['wall time (total / mean)', `${(s.wallMs.total / 1000).toFixed(0)} s / ${(s.wallMs.mean / 1000).toFixed(1)} s`],
  ];
}

import { cellCode } from '../run-log/markdown-text.js';
import type { EvalRecord } from './eval-record.js';
import { summarise, summaryRows } from './eval-summary.js';

/**
 * Two evals side by side (two models, two prompt versions, two budgets) as Markdown: their
 * summaries row by row, then every instance either ran with its result in each, the differing ones
 * first. Instances only one of them ran are counted, not compared.
 */
export function compareEvals(a: { name: string; records: readonly EvalRecord[] }, b: { name: string; records: readonly EvalRecord[] }): string {
  const [sa, sb] = [summarise(a.records), summarise(b.records)];
  const rowsB = new Map(summaryRows(sb));
  const lines = [`# greenfix eval: ${cellCode(a.name)} beside ${cellCode(b.name)}`, '', `| | A: ${cellCode(a.name)} | B: ${cellCode(b.name)} |`, '|---|---|---|'];
  for (const [label, value] of summaryRows(sa)) lines.push(`| ${label} | ${cellCode(value)} | ${cellCode(rowsB.get(label) ?? '')} |`);
  const byId = new Map(b.records.map((r) => [r.instance_id, r]));
  const both = a.records.filter((r) => byId.has(r.instance_id));
  const onlyA = a.records.length - both.length;
  const onlyB = b.records.length - both.length;
  lines.push('', `## Instances both ran (${both.length})`, '', '| instance | A | B |', '|---|---|---|');
  const differs = (r: EvalRecord) => byId.get(r.instance_id)?.status !== r.status;
  for (const r of [...both.filter(differs), ...both.filter((x) => !differs(x))]) {
    const other = byId.get(r.instance_id);
    lines.push(`| ${cellCode(r.instance_id)} | ${r.status.replace('_', ' ')} | ${(other?.status ?? '').replace('_', ' ')}${differs(r) ? ' ←' : ''} |`);
  }
  if (onlyA + onlyB > 0) lines.push('', `Only in A: ${onlyA}; only in B: ${onlyB} (not compared).`);
  return `${lines.join('\n')}\n`;
}

import { cellCode, fenced } from '../run-log/markdown-text.js';
import type { EvalRecord } from './eval-record.js';
import { summarise, summaryRows, usd } from './eval-summary.js';

/** Characters of each diff shown in the Markdown report (the JSONL keeps them whole). */
const DIFF_CHARS = 6_000;

/** One line on why an instance ended as it did: the check's reason, the gate's first line, or the error. */
export function whyLine(r: EvalRecord): string {
  if (r.status === 'error') return r.error ?? '';
  if (r.status === 'not_verified') return (r.gate ?? '').split('\n')[0] ?? '';
  return r.check?.reason ?? '';
}

/**
 * The eval as Markdown: the summary, a row per instance, then each instance's change beside the
 * gold change. Everything that came from a repository or a model is inside code.
 */
export function renderEvalMarkdown(records: readonly EvalRecord[], notRun: readonly string[] = []): string {
  const s = summarise(records);
  const lines = [`# greenfix eval: ${s.model}`, '', '| | |', '|---|---|', ...summaryRows(s).map(([k, v]) => `| ${k} | ${cellCode(v)} |`), ''];
  if (notRun.length > 0) lines.push(`Not run (the --max-cost budget was spent): ${notRun.map(cellCode).join(', ')}`, '');
  lines.push('## Instances', '', '| instance | result | steps | cost | time | why |', '|---|---|---|---|---|---|');
  for (const r of records) lines.push(`| ${cellCode(r.instance_id)} | ${r.status.replace('_', ' ')} | ${r.steps} | ${usd(r.costUsd)} | ${(r.wallMs / 1000).toFixed(0)} s | ${cellCode(whyLine(r).slice(0, 200))} |`);
  for (const r of records) {
    lines.push('', `### ${cellCode(r.instance_id)}: ${r.status.replace('_', ' ')}`, '', 'The change:', '', fenced(r.diff || '(no change)', 'diff', DIFF_CHARS), '', 'The gold change:', '', fenced(r.gold, 'diff', DIFF_CHARS));
    if (r.gate) lines.push('', 'Why nothing was verified:', '', fenced(r.gate));
  }
  return `${lines.join('\n')}\n`;
}

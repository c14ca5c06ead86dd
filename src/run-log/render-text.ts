import { clipHeadTail } from '../util/clip.js';
import { callOutcome } from './call-outcome.js';
import { endSentence } from './end-sentence.js';
import { count, editDiff, seconds } from './markdown-text.js';
import { tokensFact } from './tokens-fact.js';
import type { RunLog } from './run-log.js';

export interface TextOptions {
  /** Show each call's output (clipped to this many characters); 0 = outcome lines only. */
  outputChars?: number;
}

/** The run log for a terminal: one line per call, indented outputs, the evidence, why it ended. */
export function renderRunLogText(log: RunLog, options: TextOptions = {}): string {
  const room = options.outputChars ?? 600;
  const lines: string[] = [];
  const tokens = log.end?.tokens ?? log.steps.reduce((n, s) => n + s.tokens, 0);
  lines.push(`task: ${firstLine(log.task)}`);
  lines.push(`model: ${log.model} · ${log.steps.length} steps · ${tokensFact(log, tokens)} · ${log.end ? log.end.status : 'not finished'}`);
  if (log.repaired > 0) lines.push(`resumed after a crash: ${log.repaired} call(s) repaired`);
  for (const s of log.steps) {
    lines.push('');
    lines.push(`[step ${s.step}] ${seconds(s.durationMs)} · ${count(s.tokens)} tokens`);
    if (s.thought) lines.push(indent(clipHeadTail(s.thought, 400), '  » '));
    for (const c of s.calls) {
      lines.push(`  ${c.tool}${c.short ? ` ${c.short}` : ''} → ${callOutcome(c)} (${seconds(c.durationMs)})`);
      if (room > 0 && c.edit) lines.push(indent(clipHeadTail(editDiff(c.edit), room), '      '));
      if (room > 0 && c.output !== null && !(c.edit && c.ok)) lines.push(indent(clipHeadTail(c.output, room), '      '));
    }
    for (const n of s.notes) lines.push(`  ${n.kind}: ${firstLine(n.text)}`);
  }
  lines.push('');
  if (log.verified) {
    lines.push(`verified tree ${log.verified.tree} (${log.verified.command}, exit ${log.verified.exitCode}, ${seconds(log.verified.durationMs)})`);
    lines.push(...log.verified.tests);
  }
  else lines.push('no verified tree');
  lines.push(`end: ${endSentence(log)}${log.end ? ` ${log.end.reason}` : ''}`);
  if (log.end?.summary) lines.push(`summary: ${firstLine(log.end.summary)}`);
  return lines.join('\n');
}

function indent(text: string, prefix: string): string {
  return text.trimEnd().split('\n').map((l) => `${prefix}${l}`).join('\n');
}

function firstLine(text: string): string {
  const [first = '', ...rest] = text.trim().split('\n');
  return rest.length > 0 ? `${first} …` : first;
}

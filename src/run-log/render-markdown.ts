import { truncate } from '../util/truncate.js';
import { callOutcome, isBackground } from './call-outcome.js';
import { cellCode, count, editDiff, fenced, seconds } from './markdown-text.js';
import { endSentence } from './end-sentence.js';
import type { RunCall, RunLog, RunStep } from './run-log.js';
import { tokensFact } from './tokens-fact.js';

/** GitHub's limit on a check run's `output.text`. */
export const CHECK_TEXT_LIMIT = 65_535;

export interface MarkdownOptions {
  maxChars?: number;
  /** `git diff --stat` of the verified tree against the base, when the caller has it. */
  diffStat?: string | null;
  /** Where the whole log is (the run page), named when details had to go. */
  fullLogUrl?: string | null;
}

type Level = 'full' | 'short' | 'none';
const FULL_OUTPUT = 3_000;
const SHORT_OUTPUT = 240;
const EVIDENCE_TAIL = 8_000;
/** The note that details were left out, which the first downgrade adds. */
const NOTE_ROOM = 300;

interface Detail {
  call: RunCall;
  step: number;
  level: Level;
}

/**
 * The run log as Markdown for a check run: summary, a table of steps, the test runs, each call's
 * details, the evidence, why it ended. Within `maxChars`: the oldest reads' and commands' outputs
 * are summarised first, then edits, then earlier test runs, then the oldest table rows; the
 * evidence and the last test run always stay.
 */
export function renderRunLogMarkdown(log: RunLog, options: MarkdownOptions = {}): string {
  const max = options.maxChars ?? CHECK_TEXT_LIMIT;
  const details: Detail[] = log.steps.flatMap((s) => s.calls.map((call) => ({ call, step: s.step, level: 'full' as Level })));
  const lastTest = log.tests.at(-1)?.callId ?? null;
  const keep = (d: Detail) => d.call.id === lastTest;
  const order = [
    ...details.filter((d) => isBackground(d.call)),
    ...details.filter((d) => d.call.tool === 'edit_file' || d.call.tool === 'write_file' || d.call.tool === 'finish'),
    ...details.filter((d) => d.call.tool === 'run_tests' && !keep(d)),
  ];
  let collapsedRows = 0;
  const render = (): string => assemble(log, details, collapsedRows, options);
  let text = render();
  // Each downgrade changes one block: track the length by its delta, render again at the end.
  let length = text.length + NOTE_ROOM;
  for (const target of ['short', 'none'] as const) {
    for (const d of order) {
      if (length <= max) break;
      const before = blockOf(d);
      d.level = target;
      const after = blockOf(d);
      length += after.length - before.length - (after === '' && before !== '' ? 2 : 0);
    }
  }
  text = render();
  const rows = log.steps.reduce((n, s) => n + Math.max(1, s.calls.length), 0);
  while (text.length > max && collapsedRows < rows) {
    collapsedRows = Math.min(rows, collapsedRows + Math.max(1, Math.ceil((text.length - max) / 60)));
    text = render();
  }
  return text.length <= max ? text : `${text.slice(0, max - 40)}\n\n…(log cut at ${count(max)} characters)`;
}

function assemble(log: RunLog, details: Detail[], collapsedRows: number, options: MarkdownOptions): string {
  const parts = [header(log), stepTable(log.steps, collapsedRows), testTable(log)];
  const shown = details.filter((d) => d.level !== 'none');
  if (shown.length > 0) parts.push(`#### Steps in detail\n\n${shown.map(blockOf).join('\n\n')}`);
  const dropped = details.length - shown.length;
  if (dropped > 0 || details.some((d) => d.level === 'short')) {
    const where = options.fullLogUrl ? ` The whole log: ${options.fullLogUrl}` : ' The whole log: `greenfix log` on the job\'s journal.';
    parts.push(`_To fit GitHub's limit, ${dropped > 0 ? `the details of ${dropped} older calls were left out and ` : ''}some outputs are shortened._${where}`);
  }
  parts.push(evidence(log));
  if (options.diffStat && options.diffStat.trim() !== '') parts.push(`#### Diff stat\n\n${fenced(options.diffStat, 'text', 4_000)}`);
  parts.push(`#### Why it ended\n\n${endSentence(log)}${log.end ? `\n\n${fenced(log.end.reason, 'text', 2_000)}` : ''}${log.end?.summary ? `\n\nThe agent's summary:\n\n${fenced(log.end.summary, 'text', 2_000)}` : ''}`);
  return parts.filter((p) => p !== '').join('\n\n');
}

function header(log: RunLog): string {
  const status = log.end ? log.end.status : 'running';
  const tokens = log.end?.tokens ?? log.steps.reduce((n, s) => n + s.tokens, 0);
  const took = log.startedAt !== null && log.lastAt !== null ? seconds(log.lastAt - log.startedAt) : '—';
  const facts = [`**${status}**`, `${log.steps.length} steps`, tokensFact(log, tokens), `${took}`, `model ${cellCode(log.model) || '—'}`];
  const resumed = log.repaired > 0 ? `\n\nA crash interrupted this run; on resume ${log.repaired} unanswered call${log.repaired === 1 ? ' was' : 's were'} repaired (marked below).` : '';
  return `### What greenfix did\n\n${facts.join(' · ')}${resumed}\n\nThe task:\n\n${fenced(log.task, 'text', 1_500)}`;
}

function stepTable(steps: RunStep[], collapsedRows: number): string {
  const rows: string[] = [];
  for (const s of steps) {
    const calls = s.calls.length > 0 ? s.calls : [null];
    calls.forEach((c, i) => {
      const tokens = i === 0 ? count(s.tokens) : '';
      const note = i === 0 && s.notes.length > 0 ? ` ⚠ ${s.notes.map((n) => n.kind).join(', ')}` : '';
      if (!c) rows.push(`| ${s.step} | — | ${cellCode(truncate(s.thought ?? '', 60)) || '(no tool call)'} | no tool call${note} | ${seconds(s.durationMs)} | ${tokens} |`);
      else rows.push(`| ${s.step} | ${c.tool} | ${cellCode(c.short)} | ${callOutcome(c)}${note} | ${seconds(c.durationMs)} | ${tokens} |`);
    });
  }
  const cut = Math.min(collapsedRows, rows.length);
  const kept = rows.slice(cut);
  const summary = cut > 0 ? [`| … | | _${cut} earlier rows left out to fit_ | | | |`] : [];
  return ['| step | tool | arguments | outcome | time | tokens |', '|---:|---|---|---|---:|---:|', ...summary, ...kept].join('\n');
}

function testTable(log: RunLog): string {
  if (log.tests.length === 0) return '#### Test runs\n\nThe agent never ran the tests.';
  const rows = log.tests.map((t) => `| ${t.step} | ${t.exitCode ?? '—'} | ${seconds(t.durationMs)} | ${t.tree ? `\`${t.tree}\`` : 'not verified'} |`);
  return ['#### Test runs', '', '| step | exit code | duration | tree verified |', '|---:|---:|---:|---|', ...rows].join('\n');
}

function blockOf(d: Detail): string {
  const c = d.call;
  const title = `**${d.step} · ${c.tool}** ${cellCode(c.short)} — ${callOutcome(c)}`;
  if (d.level === 'none') return '';
  const max = d.level === 'full' ? FULL_OUTPUT : SHORT_OUTPUT;
  const body: string[] = [];
  if (c.edit) body.push(fenced(editDiff(c.edit), 'diff', max));
  else if (c.tool === 'write_file' && typeof c.args === 'object' && typeof c.args.content === 'string') body.push(fenced(c.args.content, 'text', max));
  if (c.output !== null && !(c.edit && c.ok)) body.push(fenced(c.test && c.test.tree ? c.test.output : c.output, 'text', max));
  return [title, ...body].join('\n\n');
}

function evidence(log: RunLog): string {
  const v = log.verified;
  const last = log.tests.at(-1);
  const parts = ['#### Evidence'];
  if (v) {
    parts.push(`Verified tree \`${v.tree}\`: ${cellCode(v.command)} exited ${v.exitCode} in ${seconds(v.durationMs)} with the sources unchanged.`);
    if (v.tests.length > 0) parts.push(fenced(v.tests.join('\n'), 'text', EVIDENCE_TAIL));
    parts.push(fenced(v.outputTail, 'text', EVIDENCE_TAIL));
  }
  else parts.push('No tree was verified.');
  if (last && !(v && last.tree === v.tree)) parts.push(`The last test run (step ${last.step}, exit ${last.exitCode ?? 'unknown'}):`, fenced(last.output, 'text', EVIDENCE_TAIL));
  return parts.join('\n\n');
}

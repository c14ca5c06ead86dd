import { truncate } from '../util/truncate.js';

/** Small Markdown builders shared by the renderers; each is safe for any input text. */

/** A fence longer than any backtick run in `text` (at least three), so the text cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A fenced code block holding `text` verbatim (empty text shows as "(no output)"). */
export function codeBlock(text: string, lang = ''): string {
  const body = text.trimEnd() === '' ? '(no output)' : text.trimEnd();
  const fence = fenceFor(body);
  return `${fence}${lang}\n${body}\n${fence}`;
}

/** An inline code span for a one-line value (commands, hashes); newlines become spaces. */
export function codeSpan(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ');
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line === '' ? ' ' : '';
  return `${ticks}${pad}${line}${pad}${ticks}`;
}

/** A collapsed section: GitHub needs the blank line after `<summary>` for Markdown inside. */
export function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** One line of at most `max` characters (details of phases, sentences). */
export function oneLine(text: string, max: number): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), max);
}

/** The last `max` characters, cut at a line start when one is near, saying what went. */
export function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const nl = cut.indexOf('\n');
  const kept = nl >= 0 && nl < 200 ? cut.slice(nl + 1) : cut;
  return `[… ${text.length - kept.length} earlier characters cut]\n${kept}`;
}

/** `4.2 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

import { clipHeadTail } from '../util/clip.js';

/**
 * Untrusted text in Markdown only ever inside code: a fence longer than any backtick run in it,
 * or a code span in a table cell. Nothing in it becomes a mention, a link, an image or HTML.
 */
export function fenced(text: string, info = 'text', maxChars?: number): string {
  const body = (maxChars === undefined ? text : clipHeadTail(text, maxChars)).replace(/\r/g, '').trimEnd() || '(empty)';
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${body}\n${fence}`;
}

/** A code span for one table cell: one line, pipes escaped, fenced past any backtick run. */
export function cellCode(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return '';
  const longest = Math.max(0, ...Array.from(line.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${line.replace(/\|/g, '\\|')}${pad}${ticks}`;
}

export function seconds(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `-old` / `+new` lines of an exact-text edit: the small diff of one `edit_file`. */
export function editDiff(edit: { path: string; old: string; new: string }): string {
  const minus = edit.old === '' ? [] : edit.old.split('\n').map((l) => `-${l}`);
  const plus = edit.new === '' ? [] : edit.new.split('\n').map((l) => `+${l}`);
  return [`--- ${edit.path}`, `+++ ${edit.path}`, ...minus, ...plus].join('\n');
}

/**
 * Where an `edit_file` applies. Exact first; when that finds nothing, forgiving strategies for
 * the ways models misquote text, each accepted only when it finds exactly one place.
 * Only the matched region is rewritten: tabs and line endings elsewhere stay byte for byte.
 */
import { findLineBlocks, indentShift, type LineComparator } from './line-blocks.js';

export interface EditMatch {
  start: number;
  end: number;
  replacement: string;
  strategy: string;
}

export type MatchOutcome =
  | { kind: 'unique'; match: EditMatch }
  | { kind: 'ambiguous'; lines: number[]; strategy: string }
  | { kind: 'none' };

export function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1 && needle !== ''; i = haystack.indexOf(needle, i + 1)) found.push(i);
  return found;
}

export const lineAt = (text: string, offset: number): number => occurrences(text.slice(0, offset), '\n').length + 1;

const PREFIX_FORMS = [/^\s*\d+ │ ?/, /^\s*\d+\t/, /^[^\s:]+:\d+:/, /^\s*\d+:/];

/** Removes the line numbers a model copied from read_file or search output; null if not all lines have one. */
export function stripLineNumbers(text: string): string | null {
  const lines = text.split('\n');
  const nonBlank = lines.filter((l) => l.trim() !== '');
  const form = PREFIX_FORMS.find((re) => nonBlank.length > 0 && nonBlank.every((l) => re.test(l)));
  return form ? lines.map((l) => l.replace(form, '')).join('\n') : null;
}

const toEol = (text: string, eol: string) => text.replace(/\r?\n/g, eol);

function fromOffsets(text: string, starts: number[], length: number, replacement: string, strategy: string): MatchOutcome {
  const [start] = starts;
  if (starts.length === 1 && start !== undefined) return { kind: 'unique', match: { start, end: start + length, replacement, strategy } };
  if (starts.length > 1) return { kind: 'ambiguous', lines: starts.map((s) => lineAt(text, s)), strategy };
  return { kind: 'none' };
}

const trimEndEqual: LineComparator = (a, b) => a.trimEnd() === b.trimEnd();

export function findEdit(text: string, old: string, replacement: string): MatchOutcome {
  const exact = fromOffsets(text, occurrences(text, old), old.length, replacement, 'exact');
  if (exact.kind !== 'none') return exact;

  let label = '';
  const stripped = stripLineNumbers(old);
  if (stripped !== null) {
    old = stripped;
    replacement = stripLineNumbers(replacement) ?? replacement;
    label = 'line-number prefixes stripped';
    const outcome = fromOffsets(text, occurrences(text, old), old.length, replacement, label);
    if (outcome.kind !== 'none') return outcome;
  }
  const named = (s: string) => (label ? `${label} + ${s}` : s);

  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const eolOld = toEol(old, eol);
  if (eolOld !== old) {
    const outcome = fromOffsets(text, occurrences(text, eolOld), eolOld.length, toEol(replacement, eol), named('line endings normalised'));
    if (outcome.kind !== 'none') return outcome;
  }

  const trailing = findLineBlocks(text, old, trimEndEqual);
  if (trailing.length > 1) return { kind: 'ambiguous', lines: trailing.map((b) => b.firstLine), strategy: named('trailing whitespace ignored') };
  if (trailing[0]) {
    const b = trailing[0];
    return { kind: 'unique', match: { start: b.start, end: b.end, replacement: toEol(replacement, b.eol), strategy: named('trailing whitespace ignored') } };
  }

  const shifted = findLineBlocks(text, old, 'indentation');
  if (shifted.length > 1) return { kind: 'ambiguous', lines: shifted.map((b) => b.firstLine), strategy: named('indentation shifted') };
  if (shifted[0]) {
    const b = shifted[0];
    const moved = indentShift(replacement, b.oldIndent, b.fileIndent);
    return { kind: 'unique', match: { start: b.start, end: b.end, replacement: toEol(moved, b.eol), strategy: named('indentation shifted') } };
  }
  return { kind: 'none' };
}

/** Whole-line matching of a quoted block against a file, for the forgiving edit strategies. */

export type LineComparator = (fileLine: string, oldLine: string) => boolean;

export interface IndexedLine {
  /** Offset of the first character, of the end of the text (before `\r\n`/`\n`), and after the terminator. */
  start: number;
  textEnd: number;
  lineEnd: number;
  text: string;
}

export interface LineBlock {
  start: number;
  end: number;
  firstLine: number;
  /** The line ending of the matched region, used for the replacement. */
  eol: string;
  oldIndent: string;
  fileIndent: string;
}

export function indexLines(text: string): IndexedLine[] {
  const lines: IndexedLine[] = [];
  for (let pos = 0; pos < text.length; ) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl === -1 ? text.length : nl + 1;
    const textEnd = nl === -1 ? text.length : nl > pos && text[nl - 1] === '\r' ? nl - 1 : nl;
    lines.push({ start: pos, textEnd, lineEnd, text: text.slice(pos, textEnd) });
    pos = lineEnd;
  }
  return lines;
}

/** The leading whitespace shared by every non-blank line. */
export function commonIndent(lines: readonly string[]): string {
  let indent: string | null = null;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const own = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (indent === null) indent = own;
    let i = 0;
    while (i < indent.length && i < own.length && indent[i] === own[i]) i++;
    indent = indent.slice(0, i);
  }
  return indent ?? '';
}

/** Re-indents `text` from `from` to `to`, the same shift an indentation-shifted match had. */
export function indentShift(text: string, from: string, to: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.trim() === '') return line;
      if (line.startsWith(from)) return to + line.slice(from.length);
      return to.startsWith(from) ? to.slice(from.length) + line : line;
    })
    .join('\n');
}

/**
 * Every place where the lines of `old` match whole lines of `text`, compared with `mode`:
 * a comparator per line, or 'indentation' (equal once each side's common indentation is removed).
 */
export function findLineBlocks(text: string, old: string, mode: LineComparator | 'indentation'): LineBlock[] {
  const oldLines = old.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const endsWithNewline = oldLines.length > 1 && oldLines[oldLines.length - 1] === '';
  if (endsWithNewline) oldLines.pop();
  const anchor = oldLines.findIndex((l) => l.trim() !== '');
  if (anchor === -1) return [];
  const anchorText = oldLines[anchor]!.trim();
  const oldIndent = mode === 'indentation' ? commonIndent(oldLines) : '';
  const oldBody = oldLines.map((l) => (l.trim() === '' ? '' : l.slice(oldIndent.length).trimEnd()));
  const file = indexLines(text);
  const k = oldLines.length;
  const blocks: LineBlock[] = [];
  for (let i = 0; i + k <= file.length; i++) {
    if (file[i + anchor]!.text.trim() !== anchorText) continue;
    const window = file.slice(i, i + k).map((l) => l.text);
    let fileIndent = '';
    let same: boolean;
    if (mode === 'indentation') {
      fileIndent = commonIndent(window);
      same = window.every((l, j) => (l.trim() === '' ? '' : l.slice(fileIndent.length).trimEnd()) === oldBody[j]);
    } else {
      same = window.every((l, j) => mode(l, oldLines[j]!));
    }
    if (!same) continue;
    const first = file[i]!;
    const last = file[i + k - 1]!;
    const eol = text.slice(first.textEnd, first.lineEnd) || (text.includes('\r\n') ? '\r\n' : '\n');
    blocks.push({ start: first.start, end: endsWithNewline ? last.lineEnd : last.textEnd, firstLine: i + 1, eol, oldIndent, fileIndent });
  }
  return blocks;
}

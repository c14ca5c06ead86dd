/**
 * Which parts of a Markdown text GitHub is sure to render as code, so a sanitiser may leave them
 * verbatim. Everything else is prose, where nothing untrusted may stay live.
 *
 * The rule is one-sided on purpose: calling code prose only costs an invisible character inside
 * code, while calling prose code would leave a mention or an image live. So only two kinds of
 * code are recognised, each where its extent cannot depend on block structure this module does
 * not model (lists, block quotes, tables, HTML blocks, link definitions):
 *
 * - fenced code blocks opened at column 0 (GFM 4.5): such a fence is always top-level (a list
 *   item's content is indented, a quote's lines start with `>`, a fence is never a lazy
 *   paragraph continuation, and HTML blocks cannot exist in the output because every `<` before a
 *   tag name is neutralised). It ends at a line of the same character, at least as long, indented
 *   at most three spaces, or at the end of the text.
 * - code spans (GFM 6.1: a backtick run closed by the next run of the same length) in a chunk of
 *   lines (between blank lines or fences) whose every line pairs all its own backtick runs and has
 *   none of `[ ] | < $`, `://`, `www.`. Then GitHub's left-to-right pairing over any paragraph,
 *   heading, list item or table cell in the chunk is the per-line pairing: no run is left open to
 *   pair across a line, no link destination, autolink, HTML tag, table cell or math span can take
 *   a backtick first. A backslash escapes a backtick outside a span; inside one it is literal.
 */

export interface MarkdownPart {
  /** true: GitHub renders it as code (left verbatim); false: prose. */
  code: boolean;
  text: string;
}

const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const BLANK = /^[ \t]*$/;
const NOT_PAIRABLE = /[[\]|<$]|:\/\/|www\./i;

/** `text` cut into code and prose parts, in order; joining the parts gives `text` back. */
export function splitMarkdown(text: string): MarkdownPart[] {
  const lines = text.split('\n');
  const parts: MarkdownPart[] = [];
  const push = (code: boolean, t: string) => {
    const last = parts[parts.length - 1];
    if (last && last.code === code) last.text += t;
    else if (t !== '') parts.push({ code, text: t });
  };
  let chunk: string[] = [];
  const flush = () => {
    for (const part of chunkParts(chunk)) push(part.code, part.text);
    chunk = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const nl = i < lines.length - 1 ? '\n' : '';
    const line = lines[i]!;
    const open = fenceOpen(line);
    if (open) {
      flush();
      const end = fenceEnd(lines, i, open);
      push(true, lines.slice(i, end + 1).join('\n') + (end < lines.length - 1 ? '\n' : ''));
      i = end;
      continue;
    }
    if (BLANK.test(line)) {
      flush();
      push(false, line + nl);
      continue;
    }
    chunk.push(line + nl);
  }
  flush();
  return parts;
}

function fenceOpen(line: string): { char: string; length: number } | null {
  const m = FENCE_OPEN.exec(line);
  if (!m) return null;
  const run = m[1]!;
  // A backtick fence's info string may not contain a backtick (GFM 4.5): then it is not a fence.
  if (run[0] === '`' && m[2]!.includes('`')) return null;
  return { char: run[0]!, length: run.length };
}

/** The index of the closing fence line, or the last line (an unclosed fence runs to the end). */
function fenceEnd(lines: string[], start: number, open: { char: string; length: number }): number {
  const close = new RegExp(`^ {0,3}\\${open.char}{${open.length},}[ \\t]*$`);
  for (let j = start + 1; j < lines.length; j++) if (close.test(lines[j]!)) return j;
  return lines.length - 1;
}

function chunkParts(lines: string[]): MarkdownPart[] {
  const perLine = lines.map((line) => (NOT_PAIRABLE.test(line) ? null : lineParts(line)));
  if (perLine.some((p) => p === null)) return [{ code: false, text: lines.join('') }];
  return perLine.flatMap((p) => p!);
}

/** One line's code spans and prose, or null when a backtick run on it has no partner on it. */
export function lineParts(line: string): MarkdownPart[] | null {
  const parts: MarkdownPart[] = [];
  let prose = 0;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c !== '`') {
      i++;
      continue;
    }
    const n = runLength(line, i);
    const close = closingRun(line, i + n, n);
    if (close < 0) return null;
    if (i > prose) parts.push({ code: false, text: line.slice(prose, i) });
    parts.push({ code: true, text: line.slice(i, close + n) });
    i = close + n;
    prose = i;
  }
  if (prose < line.length) parts.push({ code: false, text: line.slice(prose) });
  return parts;
}

function runLength(line: string, at: number): number {
  let n = 0;
  while (line[at + n] === '`') n++;
  return n;
}

/** Start of the next backtick run of exactly `n` from `from` (backslashes are literal in a span). */
function closingRun(line: string, from: number, n: number): number {
  let j = from;
  while (j < line.length) {
    if (line[j] !== '`') {
      j++;
      continue;
    }
    const m = runLength(line, j);
    if (m === n) return j;
    j += m;
  }
  return -1;
}

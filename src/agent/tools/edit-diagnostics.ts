/** What the model reads when an edit does not apply: where its `old` probably was meant to be. */
import { cutLongLines } from '../../util/clip.js';
import { numberLine, splitLines } from './text-file.js';

/** Above this many line comparisons, similarity falls back to trimmed equality (huge files). */
const FUZZY_BUDGET = 2_000_000;

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const b = s.slice(i, i + 2);
    m.set(b, (m.get(b) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient over character bigrams: 1 for equal lines, 0 for nothing in common. */
function dice(a: Map<string, number>, b: string): number {
  const bb = bigrams(b);
  let common = 0;
  let sizeA = 0;
  let sizeB = 0;
  for (const n of a.values()) sizeA += n;
  for (const [g, n] of bb) {
    sizeB += n;
    common += Math.min(n, a.get(g) ?? 0);
  }
  return sizeA + sizeB === 0 ? 0 : (2 * common) / (sizeA + sizeB);
}

/** The window of the file most similar, line by line, to `old` (1-based inclusive), or null. */
export function closestWindow(text: string, old: string): { from: number; to: number } | null {
  const fileLines = splitLines(text).map((l) => l.trim());
  const oldLines = splitLines(old).map((l) => l.trim());
  const k = Math.min(oldLines.length, fileLines.length);
  if (k === 0) return null;
  const cheap = fileLines.length * k > FUZZY_BUDGET;
  const oldGrams = oldLines.map(bigrams);
  const sim = (j: number, line: string): number => {
    const o = oldLines[j]!;
    if (o === '') return 0;
    if (o === line) return 1;
    return cheap ? 0 : dice(oldGrams[j]!, line);
  };
  let best = { score: 0, from: 0 };
  for (let i = 0; i + k <= fileLines.length; i++) {
    let score = 0;
    for (let j = 0; j < k; j++) score += sim(j, fileLines[i + j]!);
    if (score > best.score) best = { score, from: i };
  }
  // Below this the "closest" lines are noise, and showing them would mislead.
  if (best.score < Math.max(0.5, k * 0.3)) return null;
  return { from: best.from + 1, to: best.from + k };
}

/** Numbered lines `from`–`to` (1-based, clamped) as read_file shows them. */
export function numberedExcerpt(text: string, from: number, to: number): string {
  const lines = splitLines(text);
  const a = Math.max(1, from);
  const b = Math.min(lines.length, to);
  return lines
    .slice(a - 1, b)
    .map((l, i) => numberLine(a + i, cutLongLines(l, 300)))
    .join('\n');
}

export function notFoundMessage(rel: string, text: string, old: string): string {
  const win = closestWindow(text, old);
  if (!win) return `old not found in ${rel}, and nothing similar is there: read_file it and copy the text exactly.`;
  return [
    `old not found in ${rel}. The most similar lines (${win.from}–${win.to}) are:`,
    numberedExcerpt(text, win.from - 2, win.to + 2),
    'Copy old exactly as it is in the file (without the line-number prefixes).',
  ].join('\n');
}

export function ambiguousMessage(rel: string, lines: readonly number[], strategy: string): string {
  const how = strategy === 'exact' ? '' : ` (${strategy})`;
  return `old matched ${lines.length} times in ${rel}${how}: lines ${lines.join(', ')} — add context to make it unique`;
}

import { clipHeadTail, cutLongLines } from '../util/clip.js';

/** Lines kept before the first error line: the command and what led to it. */
const CONTEXT_BEFORE = 8;
/** Lines kept after the `##[error]` line that ends the failing step. */
const CONTEXT_AFTER = 2;
const MAX_LINE_CHARS = 1000;

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z ?/;
const ACTIONS_ERROR = /^##\[error\]/;
const STEP_START = /^##\[group\]Run /;
/** What test runners, compilers and shells print where things go wrong. */
const ERROR_LINE =
  /##\[error\]|\bError\b|\bERROR\b|\berror(\[\w+\])?:|\berror TS\d+|\bFAIL(ED)?\b|\bfailed\b|\bFailures?:|Traceback \(most recent call last\)|✕|✖|panicked at/;

/** ANSI colours and cursor codes, carriage-return progress bars and Actions' timestamps go. */
export function cleanLog(log: string): string[] {
  return log
    .replace(ANSI, '')
    .split('\n')
    .map((line) => {
      const lastCr = line.replace(/\r+$/, '').lastIndexOf('\r');
      const visible = lastCr >= 0 ? line.slice(lastCr + 1) : line.replace(/\r+$/, '');
      return visible.replace(TIMESTAMP, '');
    })
    .filter((line) => !line.startsWith('##[endgroup]'));
}

function findLast(lines: string[], re: RegExp, before: number): number {
  for (let i = Math.min(before, lines.length - 1); i >= 0; i--) if (re.test(lines[i] ?? '')) return i;
  return -1;
}

/** [start, end) of the failing region, or null when nothing looks like an error. */
function failingRegion(lines: string[]): [number, number] | null {
  const marker = lines.findIndex((l) => ACTIONS_ERROR.test(l));
  if (marker >= 0) {
    const stepStart = Math.max(0, findLast(lines, STEP_START, marker));
    const first = lines.slice(stepStart, marker).findIndex((l) => ERROR_LINE.test(l));
    const from = (first >= 0 ? stepStart + first : marker) - CONTEXT_BEFORE;
    return [Math.max(from, stepStart), Math.min(lines.length, marker + 1 + CONTEXT_AFTER)];
  }
  const first = lines.findIndex((l) => ERROR_LINE.test(l));
  return first >= 0 ? [Math.max(0, first - CONTEXT_BEFORE), lines.length] : null;
}

/**
 * The region of a CI log that explains the failure. With GitHub Actions markers: the failing
 * step (the one ending in the first `##[error]`), from its first error-looking line (minus a few
 * lines of context) to that marker. Without markers: from the first error-looking line to the end.
 * Nothing error-looking: the tail. Always at most `maxChars`, head and tail kept.
 */
export function failingPart(log: string, maxChars: number): string {
  const lines = cleanLog(log);
  const region = failingRegion(lines);
  if (region === null) {
    const all = cutLongLines(lines.join('\n'), MAX_LINE_CHARS).trim();
    return maxChars > 0 ? all.slice(-maxChars) : '';
  }
  return fitChars(cutLongLines(lines.slice(...region).join('\n'), MAX_LINE_CHARS).trim(), maxChars);
}

/** clipHeadTail needs room for its marker; below that a plain cut keeps the promise. */
function fitChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars < 80) return text.slice(0, Math.max(0, maxChars));
  return clipHeadTail(text, maxChars);
}

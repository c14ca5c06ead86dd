import { git } from '../workspace/git.js';

/** A range of lines in the old file that a diff touched (`count` 0: lines were inserted after `start`). */
export interface OldRange {
  start: number;
  count: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/** The old-side ranges of a unified diff (`git diff -U0`). */
export function oldRanges(diff: string): OldRange[] {
  const ranges: OldRange[] = [];
  for (const line of diff.split('\n')) {
    const m = HUNK.exec(line);
    if (m) ranges.push({ start: Number(m[1]), count: m[2] === undefined ? 1 : Number(m[2]) });
  }
  return ranges;
}

/**
 * Whether the lines `from..to` of the old file were changed: a removed or rewritten line among
 * them, or lines inserted between two of them (an insertion right after `to` counts too: code
 * added below a commented line is how many comments are answered).
 */
export function touches(ranges: OldRange[], from: number, to: number): boolean {
  return ranges.some((r) => (r.count === 0 ? r.start >= from - 1 && r.start <= to : r.start <= to && r.start + r.count - 1 >= from));
}

/** The old-side ranges of `path` changed between two commits of `gitDir`. */
export async function changedRanges(gitDir: string, from: string, to: string, path: string): Promise<OldRange[]> {
  const diff = await git(['diff', '--no-color', '--no-ext-diff', '-U0', from, to, '--', path], { cwd: gitDir, env: { GIT_LITERAL_PATHSPECS: '1' } });
  return oldRanges(diff);
}

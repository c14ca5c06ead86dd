import type { AddedLine } from '../verify/secret-scan.js';
import { displayPath } from './git-path.js';
import { git } from './git.js';

const HUNK = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The added lines of a `git diff -U0 --no-prefix` (new-file paths, 1-based new line numbers). A
 * hunk's own counts say how many lines follow, so content that looks like a header ("+++ x" for an
 * added "++ x") stays content.
 */
export function parseAddedLines(diff: string): AddedLine[] {
  const out: AddedLine[] = [];
  let path: string | null = null;
  let next = 0;
  let removed = 0;
  let added = 0;
  for (const line of diff.split('\n')) {
    if (added > 0 || removed > 0) {
      if (line.startsWith('+') && added > 0) {
        added--;
        if (path !== null) out.push({ path, line: next++, text: line.slice(1) });
      } else if (line.startsWith('-') && removed > 0) removed--;
      else if (!line.startsWith('\\')) added = removed = 0;
      continue;
    }
    if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      path = target === '/dev/null' ? null : displayPath(target);
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      removed = hunk[1] === undefined ? 1 : Number(hunk[1]);
      next = Number(hunk[2]);
      added = hunk[3] === undefined ? 1 : Number(hunk[3]);
    }
  }
  return out;
}

/**
 * The lines `tree` adds to `base` (a commit or tree of `gitDir`), as host-side git sees them: no
 * external diff or textconv a repository could choose, no renames (a moved file's lines count as
 * added), binary files left out.
 */
export async function addedLines(gitDir: string, base: string, tree: string): Promise<AddedLine[]> {
  const diff = await git(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--no-prefix', '-U0', base, tree], { cwd: gitDir });
  return parseAddedLines(diff);
}

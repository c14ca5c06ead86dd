import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from './git.js';

/** Writes `files` (paths relative to `root`, parent directories made) into `root`. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A git repository at `root` (made if missing) on branch `main` with one commit of `files`; returns `root`. */
export function makeRepo(root: string, files: Record<string, string | Buffer>, message = 'init'): string {
  git(root, 'init', '-q', '-b', 'main');
  writeFiles(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', message);
  return root;
}

import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../../support/git.js';
import { makeRepo } from '../../../support/make-repo.js';
import { cleanup, TempDirs } from '../../../support/temp-dir.js';

/** A temp dir (realpath'd) holding a git repo with a README and `files` committed; `cleanup` removes everything. */
export function repoFixture(files: Record<string, string | Buffer> = {}): { root: string; base: string; tmp: string; cleanup: () => void } {
  const tmp = realpathSync(new TempDirs().make('greenfix-tools-'));
  const root = join(tmp, 'repo');
  mkdirSync(root);
  makeRepo(root, { 'README.md': '# test\n', ...files });
  const base = git(root, 'rev-parse', 'HEAD');
  return { root, base, tmp, cleanup: () => cleanup(tmp) };
}

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const gitEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, env: gitEnv, encoding: 'utf8' });
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A temp dir (realpath'd) holding a git repo with `files` committed; `cleanup` removes everything. */
export function makeRepo(files: Record<string, string | Buffer> = {}): { root: string; base: string; tmp: string; cleanup: () => void } {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'greenfix-tools-')));
  const root = join(tmp, 'repo');
  mkdirSync(root);
  git(root, 'init', '-q', '-b', 'main');
  writeFiles(root, { 'README.md': '# test\n', ...files });
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  const base = git(root, 'rev-parse', 'HEAD').trim();
  return { root, base, tmp, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

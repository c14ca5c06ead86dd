import { inheritedEnv } from '../../config/inherited-env.js';
import { findExecutable } from '../../sandbox/find-executable.js';
import { SAFE_GIT_FLAGS, trustedEnv, trustedGitEnv } from './trusted-env.js';

/** `rg` when installed (fast, .gitignore-aware); `git grep` everywhere else. */
export type SearchBackend = 'rg' | 'git';

export interface SearchQuery {
  pattern: string;
  /** Relative to the workspace root; "." for all of it. */
  path: string;
  glob?: string;
}

export interface SearchHit {
  path: string;
  line: number;
  text: string;
}

export function detectSearchBackend(pathEnv: string | undefined = inheritedEnv().PATH): SearchBackend {
  return findExecutable('rg', pathEnv) ? 'rg' : 'git';
}

export function searchArgv(backend: SearchBackend, q: SearchQuery): string[] {
  if (backend === 'rg') {
    const glob = q.glob ? ['--glob', q.glob] : [];
    return [
      'rg', '--line-number', '--no-heading', '--with-filename', '--null', '--color', 'never',
      '--hidden', '--no-require-git', '--glob', '!.git', '--glob', '!.greenfix', ...glob,
      '-e', q.pattern, '--', q.path,
    ];
  }
  return ['git', ...SAFE_GIT_FLAGS, 'grep', '-n', '-I', '-E', '-z', '--untracked', '--exclude-standard', '-e', q.pattern, '--', q.path];
}

/** git's env pins the workspace's git dir (see trustedGitEnv); rg reads no git config at all. */
export function searchEnv(backend: SearchBackend, ws: { root: string; gitDir: string }): Record<string, string> {
  return backend === 'git' ? trustedGitEnv(ws) : trustedEnv();
}

/** Parses one output line: rg `--null` gives `path\0line:text`, git `-z` gives `path\0line\0text`. */
export function parseHit(backend: SearchBackend, raw: string): SearchHit | null {
  const m = backend === 'rg' ? /^([^\0]+)\0(\d+):(.*)$/s.exec(raw) : /^([^\0]+)\0(\d+)\0(.*)$/s.exec(raw);
  if (!m) return null;
  return { path: m[1]!.replace(/^\.\//, ''), line: Number(m[2]), text: m[3]! };
}

/** Exit 1 means "no match" for both; anything else but 0 is an error (bad pattern, bad path). */
export const isNoMatch = (exitCode: number | null): boolean => exitCode === 1;

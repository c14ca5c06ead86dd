import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/**
 * The environment of test-side git: no system or global config file (the host's settings cannot
 * leak in), a fixed identity and no background gc (a leftover process), set as config so an
 * explicit `-c` on the command line still wins.
 */
const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_COUNT: '4',
  GIT_CONFIG_KEY_0: 'user.name',
  GIT_CONFIG_VALUE_0: 't',
  GIT_CONFIG_KEY_1: 'user.email',
  GIT_CONFIG_VALUE_1: 't@example.com',
  GIT_CONFIG_KEY_2: 'commit.gpgSign',
  GIT_CONFIG_VALUE_2: 'false',
  GIT_CONFIG_KEY_3: 'gc.auto',
  GIT_CONFIG_VALUE_3: '0',
};

/** Runs git in `cwd` (made first for `init`) and returns its stdout as is. */
export function gitRaw(cwd: string, ...args: string[]): string {
  if (args[0] === 'init') mkdirSync(cwd, { recursive: true });
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Runs git in `cwd` (made first for `init`) and returns its stdout trimmed. */
export function git(cwd: string, ...args: string[]): string {
  return gitRaw(cwd, ...args).trim();
}

import { inheritedEnv } from '../../config/inherited-env.js';

/**
 * Environment and git flags for the trusted binaries (rg, git) the read-only tools run outside
 * the sandbox. Nothing from greenfix's own environment but PATH; no user or system git config.
 * The worktree is writable by sandboxed code, so repo config must not make git run commands:
 * fsmonitor is switched off on the command line, which overrides any repo config.
 */
export function trustedEnv(path: string = inheritedEnv().PATH ?? '/usr/bin:/bin'): Record<string, string> {
  return {
    PATH: path,
    LC_ALL: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
  };
}

/**
 * trustedEnv for git in a workspace: GIT_DIR is the git dir resolved when the workspace was
 * opened, never the worktree's `.git` file (sandboxed code can point that at a git dir whose
 * config runs commands or moves the work tree elsewhere). GIT_WORK_TREE overrides any
 * `core.worktree`.
 */
export function trustedGitEnv(ws: { root: string; gitDir: string }, path?: string): Record<string, string> {
  return { ...trustedEnv(path), GIT_DIR: ws.gitDir, GIT_WORK_TREE: ws.root };
}

export const SAFE_GIT_FLAGS = [
  '-c', 'core.fsmonitor=false',
  '-c', 'safe.directory=*',
  '-c', 'core.quotePath=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.attributesFile=/dev/null',
];

/** Timeout of one search or listing. */
export const TRUSTED_TIMEOUT_MS = 30_000;

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { runProcess } from '../util/run-process.js';
import { clipHeadTail } from '../util/clip.js';
import { inheritedEnv } from '../config/inherited-env.js';

export interface GitOptions {
  cwd: string;
  /** Only GIT_* variables; everything else in the child's environment is allow-listed here. */
  env?: Record<string, string>;
  input?: string;
  timeoutMs?: number;
  /** Fail (kind 'output-overflow') rather than return a partial stdout. Default 256 MiB. */
  maxOutputBytes?: number;
}

export type GitErrorKind = 'exit' | 'timeout' | 'output-overflow';

/** A git invocation that did not succeed. Branch on `kind` / `exitCode`, never on the message. */
export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    readonly kind: GitErrorKind,
    readonly args: readonly string[],
    readonly exitCode: number | null,
    /** Clipped to a few KB: enough to diagnose, never a log flood. */
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${kind}, exit ${exitCode}): ${stderr.trim().slice(0, 500)}`);
  }
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;
/**
 * Always on. safe.directory: the worktree may be owned by the sandbox uid while greenfix runs as
 * root, and git's ownership check would otherwise refuse every command. The rest: host-side git
 * runs no command a repository (or the machine's config) chose: no hooks (post-checkout on
 * `worktree add`), no fsmonitor, no attributes beyond the repository's own `.gitattributes`
 * (whose `filter=` needs a driver in config, and only the repository's config is read: see
 * `gitEnv` and `neutralFilterFlags`).
 */
export const HOST_GIT_CONFIG = [
  '-c', 'safe.directory=*',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.attributesFile=/dev/null',
] as const;

/**
 * The child's whole environment: a few basics, no system or global config (a `filter.*` or
 * `core.*` there would run in this unsandboxed process), no system attributes, never a prompt.
 */
export const HOST_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};

function gitEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = { ...HOST_GIT_ENV };
  Object.assign(env, inheritedEnv());
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (!key.startsWith('GIT_')) throw new TypeError(`git(): only GIT_* variables may be passed, got ${key}`);
    env[key] = value;
  }
  return env;
}

/** Runs git and returns its stdout; any failure is a GitError. */
export async function git(args: string[], opts: GitOptions): Promise<string> {
  const maxOutput = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const result = await runProcess({
    argv: ['git', ...HOST_GIT_CONFIG, ...args],
    cwd: opts.cwd,
    env: gitEnv(opts.env),
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    headBytes: maxOutput,
    tailBytes: 0,
    ...(opts.input === undefined ? {} : { stdin: opts.input }),
  });
  const stderr = clipHeadTail(result.stderr, 4000);
  if (result.timedOut) throw new GitError('timeout', args, result.exitCode, stderr);
  if (result.exitCode !== 0) throw new GitError('exit', args, result.exitCode, stderr);
  if (result.truncated) throw new GitError('output-overflow', args, result.exitCode, stderr);
  return result.stdout;
}

/**
 * A git that keeps running (a batch command fed on stdin: git-batch.ts), with the config and the
 * environment of git(); GIT_FLUSH=1 so that it answers each request as it comes.
 */
export function spawnGit(args: readonly string[], opts: { cwd: string; env?: Record<string, string> }): ChildProcessWithoutNullStreams {
  return spawn('git', [...HOST_GIT_CONFIG, ...args], { cwd: opts.cwd, env: gitEnv({ ...opts.env, GIT_FLUSH: '1' }), stdio: 'pipe' });
}

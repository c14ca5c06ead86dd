import { closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Claims the next free `<prefix>-<n>.log` in the scratch dir (`wx`: two calls never share one),
 * so every command's full output stays readable afterwards with read_file. The scratch dir is the
 * host's (the workspace's state dir), outside the worktree: the sandbox cannot see or swap it.
 */
export function claimScratchFile(scratchDir: string, prefix: string): string {
  mkdirSync(scratchDir, { recursive: true });
  let n = readdirSync(scratchDir).filter((f) => f.startsWith(`${prefix}-`)).length + 1;
  for (;;) {
    const file = join(scratchDir, `${prefix}-${n}.log`);
    try {
      closeSync(openSync(file, 'wx', 0o600));
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      n++;
    }
  }
}

const SCRATCH_NAME = /^(run|tests|gate)-\d+\.log$/;

/**
 * The scratch file a model-given path names (the absolute path a tool result printed), or null.
 * read_file reads it read-only; nothing writes it but the host.
 */
export function scratchFileOf(scratchDir: string, input: string): string | null {
  const path = resolve(input.trim());
  return input.trim().startsWith('/') && dirname(path) === resolve(scratchDir) && SCRATCH_NAME.test(basename(path)) ? path : null;
}

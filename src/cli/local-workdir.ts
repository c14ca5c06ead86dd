import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the local CLI keeps its runs, baselines, caches and its compiled code (compiled-cli.ts):
 * GREENFIX_WORKDIR, or its default <tmpdir>/greenfix-<uid>. Whether it is the user's own is
 * checked by whoever writes there (workdir-check.ts `ownWorkdirProblem`, compiled-cli.ts).
 */
export function localWorkdir(env: Record<string, string | undefined>): string {
  return env.GREENFIX_WORKDIR?.trim() || join(tmpdir(), `greenfix-${process.getuid?.() ?? 'user'}`);
}

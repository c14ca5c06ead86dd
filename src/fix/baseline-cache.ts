import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { baselineSummarySchema, testReportSchema } from '../verify/test-evidence.js';
import { writeFileAtomic } from '../util/write-file-atomic.js';

const CacheSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  summary: baselineSummarySchema,
  report: testReportSchema.nullable(),
});
export type BaselineEntry = Omit<z.infer<typeof CacheSchema>, 'version'>;

/**
 * The cache key: the base tree, the verify command, the setup command, the environment image's digest and the dependency state the
 * run saw (setup-phase.ts `dependencyState`), so a result obtained against one node_modules never
 * stands for another — a poisoned entry's "exit 0" does not outlive the entry.
 */
export function baselineKey(baseTree: string, verify: string, setup: string | null, dependencies: string, image: string | null = null): string {
  // The environment image's digest only when there is one: the host's keys stay as they were.
  const parts = image ? [baseTree, verify, setup, dependencies, image] : [baseTree, verify, setup, dependencies];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * `<workdir>/baselines/`: host-owned, 0700, outside every worktree (the sandbox cannot reach it).
 * With `environment` (locally: the user's toolchains the sandbox sees), a directory of its own
 * below, so a baseline run without a toolchain never stands for one run with it.
 */
export function baselineCacheDir(workdir: string, environment?: string): string {
  const dir = join(workdir, 'baselines');
  return environment ? join(dir, `env-${createHash('sha256').update(environment).digest('hex').slice(0, 16)}`) : dir;
}

/** The cached baseline for `key`, or null (absent, unreadable or from another key: run it again). */
export function readBaseline(dir: string, key: string): BaselineEntry | null {
  try {
    const parsed = CacheSchema.safeParse(JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')));
    return parsed.success && parsed.data.key === key ? { key, summary: parsed.data.summary, report: parsed.data.report } : null;
  } catch {
    return null;
  }
}

/** Atomic (write a unique temporary file, fsync, rename): two jobs on one commit never see half a file. */
export function writeBaseline(dir: string, entry: BaselineEntry): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  writeFileAtomic(join(dir, `${entry.key}.json`), JSON.stringify(CacheSchema.parse({ version: 1, ...entry })));
}

import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { baselineSummarySchema, testReportSchema } from '../verify/test-evidence.js';

/**
 * The phases of a fix around the agent's own journal: what was decided at the start (so a resumed
 * run uses the same base, commands and commit date) and which effects already happened (setup,
 * publish), so none is made twice. Written atomically: a crash leaves the old or the new version.
 */
const RunStateSchema = z.object({
  version: z.literal(1),
  task: z.string(),
  baseCommit: z.string(),
  /** Author/committer date of the commit; fixed once so a re-published commit has the same oid. */
  createdAt: z.number(),
  commands: z.object({ setup: z.string().nullable(), verify: z.string().nullable() }),
  setup: z.object({ exitCode: z.number().nullable(), timedOut: z.boolean(), durationMs: z.number(), outputTail: z.string() }).optional(),
  /** The baseline run on the base tree (baseline-phase.ts), once done: a resumed run does not repeat it. */
  baseline: z.object({ summary: baselineSummarySchema, report: testReportSchema.nullable(), cached: z.boolean() }).optional(),
  published: z
    .object({
      branch: z.string(),
      commit: z.string(),
      tree: z.string(),
      pullRequest: z.object({ number: z.number(), url: z.string() }).optional(),
    })
    .optional(),
});
export type RunState = z.infer<typeof RunStateSchema>;

export class RunStateError extends Error {
  override readonly name = 'RunStateError';
}

export function loadRunState(path: string): RunState | null {
  if (!existsSync(path)) return null;
  const parsed = RunStateSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new RunStateError(`${path} is not a valid greenfix run state: ${parsed.error.message}`);
  return parsed.data;
}

export function saveRunState(path: string, state: RunState): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(RunStateSchema.parse(state), null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

import * as z from 'zod';
import { baselineSummarySchema, testReportSchema } from '../verify/test-evidence.js';

/**
 * The phases of a fix around the agent's own journal: what was decided at the start (so a resumed
 * run uses the same base, commands and commit date) and which effects already happened (setup,
 * publish), so none is made twice. Kept as the `fix` section of the state file (state-file.ts).
 */
export const RunStateSchema = z.strictObject({
  task: z.string(),
  baseCommit: z.string(),
  /** Author/committer date of the commit; fixed once so a re-published commit has the same oid. */
  createdAt: z.number(),
  commands: z.strictObject({ setup: z.string().nullable(), verify: z.string().nullable() }),
  setup: z
    .strictObject({
      exitCode: z.number().nullable(),
      timedOut: z.boolean(),
      durationMs: z.number(),
      outputTail: z.string(),
      /** What the dependency cache did: restored (hit), stored this install, or neither. */
      cache: z.strictObject({ result: z.enum(['hit', 'stored', 'miss']), bytes: z.number() }).optional(),
      /**
       * What setup left outside the base tree, kept host-side for the clean room (workspace/setup-state.ts):
       * its digest, size, and what could not be kept. Absent in runs of older versions.
       */
      dependencyState: z
        .strictObject({
          digest: z.string(),
          files: z.number(),
          bytes: z.number(),
          refused: z.array(z.strictObject({ path: z.string(), reason: z.string() })),
        })
        .optional(),
      /** What the egress proxy let through and refused during setup (absent without a proxy: unsandboxed, or an older run). */
      egress: z
        .strictObject({
          refusedCount: z.number(),
          refused: z.array(z.strictObject({ target: z.string(), reason: z.string(), address: z.string().optional(), count: z.number() })),
          /** The connections it made (absent in older runs). */
          connectedCount: z.number().optional(),
          connections: z
            .array(z.strictObject({ target: z.string(), address: z.string().optional(), count: z.number(), bytesOut: z.number(), bytesIn: z.number() }))
            .optional(),
        })
        .optional(),
    })
    .optional(),
  /** The baseline run on the base tree (baseline-phase.ts), once done: a resumed run does not repeat it. */
  baseline: z
    .strictObject({ summary: baselineSummarySchema, report: testReportSchema.nullable(), cached: z.boolean(), artefacts: z.array(z.string()).optional() })
    .optional(),
  published: z
    .strictObject({
      branch: z.string(),
      commit: z.string(),
      tree: z.string(),
      pullRequest: z.strictObject({ number: z.number(), url: z.string() }).optional(),
      checkRunUrl: z.string().optional(),
    })
    .optional(),
});
export type RunState = z.infer<typeof RunStateSchema>;

/** Where runFix keeps its section (the state file's `fix` section). */
export interface RunStateStore {
  get(): RunState | undefined;
  set(state: RunState): void;
}

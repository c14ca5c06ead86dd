import * as z from 'zod';
import { listNames } from './test-names.js';
import { VERIFY_MODES, noNewFailuresSentence } from './verify-policy.js';

const totals = z.object({ passed: z.number(), failed: z.number(), skipped: z.number(), total: z.number() });
const ids = z.array(z.string());

/** What the baseline run on the base tree found; kept in the run state and the baseline cache. */
export const baselineSummarySchema = z.object({
  command: z.string(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  /** The report format found; null = exit code only. */
  format: z.string().nullable(),
  totals: totals.nullable(),
  failing: ids,
});
export type BaselineSummary = z.infer<typeof baselineSummarySchema>;

/**
 * compare-reports.ts `TestComparison`. Evidence stored before removed, now-skipped and
 * not-run-on-the-base tests were told apart had `missing` (passed on the base, did not run): it
 * reads as `removed`.
 */
const comparisonSchema = z
  .object({
    fixed: ids,
    broken: ids,
    stillFailing: ids,
    newPassing: ids,
    newFailing: ids,
    flaky: ids,
    removed: ids.default([]),
    nowSkipped: ids.default([]),
    notRunOnBase: ids.default([]),
    missing: ids.optional(),
  })
  .transform(({ missing, ...c }) => ({ ...c, removed: [...new Set([...c.removed, ...(missing ?? [])])] }));

/** The per-test part of the evidence of a verified tree (journal, PR body, check run, CLI JSON). */
export const testEvidenceSchema = z.object({
  mode: z.enum(VERIFY_MODES),
  format: z.string().nullable(),
  totals: totals.nullable(),
  comparison: comparisonSchema.nullable(),
  baseline: baselineSummarySchema.nullable(),
  fallback: z.string().nullable(),
  reason: z.string(),
});
export type TestEvidence = z.infer<typeof testEvidenceSchema>;

/** "on main: 212 tests, 3 failing: a, b, c" — for the status comment, the CLI and the model. */
export function baselineSentence(b: BaselineSummary, where: string, max = 10): string {
  if (b.timedOut) return `on ${where}: the test command timed out after ${(b.durationMs / 1000).toFixed(0)} s`;
  if (!b.totals) return `on ${where}: the test command exited ${b.exitCode ?? 'without a code'}; its output has no test report greenfix can read (exit code only)`;
  const head = `on ${where}: ${b.totals.total} tests`;
  if (b.totals.failed === 0) return `${head}, all passing${b.exitCode === 0 ? '' : ` (but the command exited ${b.exitCode})`}`;
  const listed = b.failing.length > 0 ? `: ${listNames(b.failing, max)}` : '';
  return `${head}, ${b.totals.failed} failing${listed}`;
}

/** A TestReport as stored (baseline cache, run state): validated when read back. */
export const testReportSchema = z.object({
  format: z.string(),
  tests: z.array(z.object({ id: z.string(), status: z.enum(['passed', 'failed', 'skipped']), target: z.string().optional() })),
  totals,
  listsPassing: z.boolean(),
  stoppedEarly: z.object({ ranTargets: ids }).optional(),
});

/** The summary of a baseline run's outcome and report. */
export function summarizeBaseline(
  command: string,
  run: { exitCode: number | null; timedOut: boolean; durationMs: number },
  report: z.infer<typeof testReportSchema> | null,
): BaselineSummary {
  return {
    command,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    format: report?.format ?? null,
    totals: report?.totals ?? null,
    failing: report ? report.tests.filter((t) => t.status === 'failed').map((t) => t.id) : [],
  };
}

/**
 * Under `no_new_failures`, what a verified red run means: "no new failures (verify_mode
 * no_new_failures); still failing: x, y" — for the end line, the CLI and the commit's
 * `Verified-by:` trailer. Null when the tests simply passed (exit 0).
 */
export function noNewFailuresNote(verified: { exitCode: number; tests?: TestEvidence | null | undefined }): string | null {
  const tests = verified.tests;
  if (verified.exitCode === 0 || tests?.mode !== 'no_new_failures') return null;
  return noNewFailuresSentence(tests.comparison?.stillFailing ?? []);
}

import { closeSync } from 'node:fs';
import { z } from 'zod';
import type { SandboxResult } from '../../sandbox/types.js';
import { clipHeadTail, lastLines } from '../../util/clip.js';
import { openRegularFile, readFd } from '../../util/regular-file.js';
import { parseReport } from '../../verify/parse-report.js';
import type { TestEvidence } from '../../verify/test-evidence.js';
import { decideVerification, needsRerun, type RunOutcome } from '../../verify/verify-policy.js';
import { describeExit } from './command-output.js';
import { artefactNote } from './artefact-note.js';
import { collectReportFiles } from './report-files.js';
import { withErrorHint } from './error-hints.js';
import { claimScratchFile } from './scratch.js';
import { testChangeLines } from './test-verdict-text.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

const TAIL_LINES = 60;
const TAIL_READ_BYTES = 64 * 1024;
/** How much of a test run's output is parsed for a report (a jest --json line can be large). */
const REPORT_READ_BYTES = 16 * 1024 * 1024;

const schema = z.object({});

/** The start or end of a host-owned scratch file (outside the worktree), opened without following links. */
function readRange(file: string, fromEnd: boolean, max: number): string | null {
  try {
    const fd = openRegularFile(file, 'read');
    let buf: Buffer;
    try {
      buf = readFd(fd, max, fromEnd);
    } finally {
      closeSync(fd);
    }
    return buf.length > 0 ? buf.toString('utf8') : null;
  } catch {
    return null;
  }
}

/** The end of the combined, in-order output file; falls back to the captured streams. */
function outputTail(file: string, r: SandboxResult): string {
  const text = readRange(file, true, TAIL_READ_BYTES);
  return lastLines(text ?? `${r.stdout}${r.stderr}`, TAIL_LINES);
}

const notConfigured: ToolResult = {
  ok: false,
  output:
    'no test command is configured, so nothing can be verified. The user sets one with `verify:` in .github/greenfix.yml (or --verify in local mode). Finish with gave_up: true and say so.',
};

interface OneRun {
  r: SandboxResult;
  changed: string[];
  before: string;
  after: string;
  outputFile: string;
  outcome: RunOutcome;
  /** Paths this run wrote for the first time (test artefacts), said once. */
  artefacts: string[];
}

async function runOnce(ctx: ToolContext, command: string): Promise<OneRun> {
  const { workspace, limits } = ctx;
  const outputFile = claimScratchFile(workspace.scratchDir, 'tests');
  const before = await workspace.treeHash();
  const observed = await workspace.observe(
    () =>
      ctx.sandbox.run({
        command,
        workspace: workspace.root,
        readOnlyBinds: workspace.sandboxBinds,
        timeoutMs: limits.testTimeoutSec * 1000,
        outputFile,
        signal: ctx.signal,
      }),
    'tests',
  );
  const after = await workspace.treeHash();
  const r = observed.value;
  const output = readRange(outputFile, false, REPORT_READ_BYTES) ?? `${r.stdout}${r.stderr}`;
  let report = parseReport(output);
  // No per-test listing in the output: the run may have written JUnit XML (maven, gradle, pytest).
  if (!report?.listsPassing && !r.timedOut && !r.aborted) {
    const files = await collectReportFiles({ workspace, sandbox: ctx.sandbox, timeoutMs: 30_000, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (files.length > 0) report = parseReport(output, files);
  }
  const outcome: RunOutcome = { exitCode: r.exitCode ?? -1, timedOut: r.timedOut || r.aborted, report };
  return { r, changed: observed.changed, before, after, outputFile, outcome, artefacts: observed.artefacts?.first ?? [] };
}

const untouched = (run: OneRun) => run.changed.length === 0 && run.after === run.before;

/**
 * Runs the verify command and decides by the repository's verify_mode (DESIGN §3.2 either way: the
 * tree must be the same before and after, and no existing file may change). A test that passed on
 * the base and fails now gets one rerun: if it passes there it is flaky, not broken.
 */
async function runTests(ctx: ToolContext, command: string): Promise<ToolResult> {
  const { limits } = ctx;
  const mode = ctx.tests?.mode ?? 'all_pass';
  const baseline = ctx.tests?.baseline ?? null;
  const first = await runOnce(ctx, command);
  const rerun = untouched(first) && needsRerun(baseline, first.outcome) ? await runOnce(ctx, command) : null;
  const last = rerun ?? first;
  const decision = decideVerification(mode, baseline, first.outcome, rerun?.outcome ?? null);
  const tail = clipHeadTail(outputTail(last.outputFile, last.r), Math.max(500, limits.outputChars - 500));
  const notes = artefactNote([...first.artefacts, ...(rerun?.artefacts ?? [])]);
  const full = `[full output: ${last.outputFile} (read_file it)]${notes}`;
  // Without a readable report (and no policy to explain), the output is what it always was.
  const readable = first.outcome.report !== null || decision.fallback !== null;
  const changes = readable ? `${testChangeLines(first.outcome.report, decision.comparison)}\n` : '';
  const fallback = decision.fallback ? `\n${decision.fallback}.` : '';
  if (!decision.verified) {
    const why = readable ? `: ${decision.reason}` : '';
    return { ok: false, output: withErrorHint(`tests failed (${describeExit(first.r, limits.testTimeoutSec)}): not verified${why}.${fallback}\n${changes}${tail}\n${full}`, tail) };
  }
  const changedFiles = [...first.changed, ...(rerun?.changed ?? [])];
  if (!untouched(first) || (rerun && !untouched(rerun)) || last.after !== first.before) {
    const which = changedFiles.length > 0 ? `: ${changedFiles.join(', ')}` : '';
    return { ok: false, output: `tests passed, but the test run changed source files${which} — verification void. Make the tests leave sources alone, or revert what they changed, then run_tests again. If one is an output of the tests (a log, a report) that a run command made first, delete it and run_tests again: what run_tests itself creates is a test artefact, left out of the tree.\n${full}` };
  }
  const exitCode = rerun && rerun.outcome.exitCode === 0 ? 0 : first.outcome.exitCode;
  const tests: TestEvidence = {
    mode: decision.mode,
    format: first.outcome.report?.format ?? null,
    totals: first.outcome.report?.totals ?? null,
    comparison: decision.comparison,
    baseline: ctx.tests?.baselineSummary ?? null,
    fallback: decision.fallback,
    reason: decision.reason,
  };
  const how = exitCode === 0 ? `tests passed (exit code 0 in ${(last.r.durationMs / 1000).toFixed(1)}s)` : `tests ran (exit code ${exitCode} in ${(last.r.durationMs / 1000).toFixed(1)}s; verify_mode ${decision.mode}: ${decision.reason})`;
  return {
    ok: true,
    output: `${how}: tree ${first.after} verified. Finish now, or change more and run_tests again.${fallback}\n${changes}${tail}${notes}`,
    verified: { tree: first.after, command, exitCode, durationMs: last.r.durationMs, outputTail: tail, tests },
  };
}

export const runTestsTool: Tool<typeof schema> = {
  name: 'run_tests',
  description: "Run the repository's test command. When it passes (by the repository's verify_mode) with sources untouched, the current tree becomes verified.",
  schema,
  readOnly: false,
  execute: (_args, ctx) => (ctx.verifyCommand === null ? Promise.resolve(notConfigured) : runTests(ctx, ctx.verifyCommand)),
};

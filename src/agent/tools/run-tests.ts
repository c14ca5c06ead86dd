import * as z from 'zod';
import { runTestCommand, testOutputTail, type TestRun } from '../test-run.js';
import { clipHeadTail } from '../../util/clip.js';
import type { TestEvidence } from '../../verify/test-evidence.js';
import { decideVerification, needsRerun, type RunOutcome } from '../../verify/verify-policy.js';
import { describeExit } from './command-output.js';
import { artefactNote } from './artefact-note.js';
import { cleanRoomGate, outcomeOf } from './clean-room-gate.js';
import { withErrorHint } from './error-hints.js';
import { testChangeLines } from './test-verdict-text.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

const schema = z.object({});

const notConfigured: ToolResult = {
  ok: false,
  output:
    'no test command is configured, so nothing can be verified. The user sets one with `verify:` in .github/greenfix.yml (or --verify in local mode). Finish with gave_up: true and say so.',
};

interface OneRun {
  run: TestRun;
  changed: string[];
  before: string;
  after: string;
  outcome: RunOutcome;
  /** Paths this run wrote for the first time (test artefacts), said once. */
  artefacts: string[];
}

/** One run in the agent's worktree: the model's feedback, watched for what it changes. */
async function runOnce(ctx: ToolContext, command: string): Promise<OneRun> {
  const { workspace, limits } = ctx;
  const before = await workspace.treeHash();
  const observed = await workspace.observe(
    () =>
      runTestCommand({
        sandbox: ctx.sandbox,
        place: { dir: workspace.root, readOnlyBinds: workspace.sandboxBinds, scratchDir: workspace.scratchDir },
        command,
        timeoutMs: limits.testTimeoutSec * 1000,
        label: 'tests',
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      }),
    'tests',
  );
  const after = await workspace.treeHash();
  const run = observed.value;
  return { run, changed: observed.changed, before, after, outcome: outcomeOf(run), artefacts: observed.artefacts?.first ?? [] };
}

const untouched = (run: OneRun) => run.changed.length === 0 && run.after === run.before;

/**
 * Runs the verify command and decides by the repository's verify_mode (DESIGN §3.2 either way: the
 * tree must be the same before and after, and no existing file may change). A test that passed on
 * the base and fails now gets one rerun: if it passes there it is flaky, not broken. A pass in the
 * worktree is the model's feedback only: the tree becomes verified when the clean-room gate
 * (clean-room-gate.ts) passes it too, and the evidence is that run's.
 */
async function runTests(ctx: ToolContext, command: string): Promise<ToolResult> {
  const { limits } = ctx;
  const mode = ctx.tests?.mode ?? 'all_pass';
  const baseline = ctx.tests?.baseline ?? null;
  const first = await runOnce(ctx, command);
  const rerun = untouched(first) && needsRerun(baseline, first.outcome) ? await runOnce(ctx, command) : null;
  const last = rerun ?? first;
  const decision = decideVerification(mode, baseline, first.outcome, rerun?.outcome ?? null, { allowRemovedTests: ctx.tests?.allowRemovedTests === true });
  const tail = clipHeadTail(testOutputTail(last.run), Math.max(500, limits.outputChars - 500));
  const ignored = first.run.ignoredReports.length > 0 ? `\n[report files that were there before the run started do not count: ${first.run.ignoredReports.join(', ')}]` : '';
  const notes = `${artefactNote([...first.artefacts, ...(rerun?.artefacts ?? [])])}${ignored}`;
  const full = `[full output: ${last.run.outputFile} (read_file it)]${notes}`;
  // Without a readable report (and no policy to explain), the output is what it always was.
  const readable = first.outcome.report !== null || decision.fallback !== null;
  const changes = readable ? `${testChangeLines(first.outcome.report, decision.comparison)}\n` : '';
  const fallback = decision.fallback ? `\n${decision.fallback}.` : '';
  if (!decision.verified) {
    const why = readable ? `: ${decision.reason}` : '';
    return { ok: false, output: withErrorHint(`tests failed (${describeExit(first.run.result, limits.testTimeoutSec)}): not verified${why}.${fallback}\n${changes}${tail}\n${full}`, tail) };
  }
  const changedFiles = [...first.changed, ...(rerun?.changed ?? [])];
  if (!untouched(first) || (rerun && !untouched(rerun)) || last.after !== first.before) {
    const which = changedFiles.length > 0 ? `: ${changedFiles.join(', ')}` : '';
    return { ok: false, output: `tests passed, but the test run changed source files${which} — verification void. Make the tests leave sources alone, or revert what they changed, then run_tests again. If one is an output of the tests (a log, a report) that a run command made first, delete it and run_tests again: what run_tests itself creates is a test artefact, left out of the tree.\n${full}` };
  }
  const gate = await cleanRoomGate(ctx, command, first.after);
  if (gate.refusal !== null) return { ok: false, output: `${gate.refusal}${notes}` };
  const g = gate.decision;
  const exitCode = gate.outcome.exitCode === 0 || g.mode === 'all_pass' ? 0 : gate.outcome.exitCode;
  const tests: TestEvidence = {
    mode: g.mode,
    format: gate.outcome.report?.format ?? null,
    totals: gate.outcome.report?.totals ?? null,
    comparison: g.comparison,
    baseline: ctx.tests?.baselineSummary ?? null,
    fallback: g.fallback,
    reason: g.reason,
  };
  const seconds = (gate.run.result.durationMs / 1000).toFixed(1);
  const how = exitCode === 0 ? `tests passed (exit code 0 in ${seconds}s)` : `tests ran (exit code ${exitCode} in ${seconds}s; verify_mode ${g.mode}: ${g.reason})`;
  const gateChanges = gate.outcome.report !== null || g.fallback !== null ? `${testChangeLines(gate.outcome.report, g.comparison)}\n` : '';
  const gateFallback = g.fallback ? `\n${g.fallback}.` : '';
  return {
    ok: true,
    output: `${how} in your worktree and in a clean room of the tree alone: tree ${first.after} verified. Finish now, or change more and run_tests again.${gateFallback}\n${gateChanges}${gate.tail}${notes}`,
    verified: { tree: first.after, command, exitCode, durationMs: gate.run.result.durationMs, outputTail: gate.tail, tests, cleanRoom: gate.timings },
  };
}

export const runTestsTool: Tool<typeof schema> = {
  name: 'run_tests',
  description: "Run the repository's test command. When it passes (by the repository's verify_mode) with sources untouched, the current tree becomes verified.",
  schema,
  readOnly: false,
  execute: (_args, ctx) => (ctx.verifyCommand === null ? Promise.resolve(notConfigured) : runTests(ctx, ctx.verifyCommand)),
};

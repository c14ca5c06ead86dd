import { runTestCommand, testOutputTail, type TestRun } from '../test-run.js';
import { clipHeadTail } from '../../util/clip.js';
import { decideVerification, needsRerun, type RunOutcome, type VerifyDecision } from '../../verify/verify-policy.js';
import type { CleanRoom } from '../../workspace/clean-room.js';
import { describeExit } from './command-output.js';
import { testChangeLines } from './test-verdict-text.js';
import type { ToolContext } from './types.js';

const SHOWN_PATHS = 10;

export interface GateVerdict {
  decision: VerifyDecision;
  run: TestRun;
  outcome: RunOutcome;
  tail: string;
  timings: CleanRoom['timings'];
  /** For the model when the verdict is no: what differed from its worktree, and the gate's own output. */
  refusal: string | null;
}

/** A run's outcome for verify_mode: a run killed for any reason counts as timed out (never verified). */
export function outcomeOf(run: TestRun): RunOutcome {
  const r = run.result;
  return { exitCode: r.exitCode ?? -1, timedOut: r.timedOut || r.aborted, report: run.report, ...(run.reportConflict ? { reportConflict: run.reportConflict } : {}) };
}

/** One run of the verify command in the clean room. */
function gateRun(ctx: ToolContext, command: string, room: CleanRoom): Promise<TestRun> {
  return runTestCommand({
    sandbox: ctx.sandbox,
    place: { dir: room.dir, mountAt: room.mountAt, readOnlyBinds: ctx.workspace.sandboxBinds, scratchDir: ctx.workspace.scratchDir },
    command,
    timeoutMs: ctx.limits.testTimeoutSec * 1000,
    label: 'gate',
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
}

/**
 * The clean-room gate (DESIGN §3.2): `tree` — the one run_tests just passed in the worktree — is
 * materialised with only this fix's setup state beside it, and the verify command runs there.
 * That run alone decides, by the same verify_mode and baseline; a test that broke gets one rerun
 * in the same room, as in the worktree. On a no, the model reads why and what its worktree had that
 * the room did not (an ignored file its run read, a report it planted).
 */
export async function cleanRoomGate(ctx: ToolContext, command: string, tree: string): Promise<GateVerdict> {
  const mode = ctx.tests?.mode ?? 'all_pass';
  const baseline = ctx.tests?.baseline ?? null;
  const room = await ctx.workspace.openCleanRoom(tree, ctx.fileOwner);
  let first: TestRun;
  let again: TestRun | null;
  try {
    first = await gateRun(ctx, command, room);
    again = needsRerun(baseline, outcomeOf(first)) ? await gateRun(ctx, command, room) : null;
  } finally {
    await room.dispose();
  }
  const firstOutcome = outcomeOf(first);
  const decision = decideVerification(mode, baseline, firstOutcome, again ? outcomeOf(again) : null, { allowRemovedTests: ctx.tests?.allowRemovedTests === true });
  const last = again ?? first;
  const tail = clipHeadTail(testOutputTail(last), Math.max(500, ctx.limits.outputChars - 1500));
  const verdict = { decision, run: first, outcome: firstOutcome, tail, timings: room.timings };
  if (decision.verified) return { ...verdict, refusal: null };
  const outside = await ctx.workspace.outsideTree(tree).catch(() => []);
  const shown = outside.slice(0, SHOWN_PATHS).join(', ') + (outside.length > SHOWN_PATHS ? ` and ${outside.length - SHOWN_PATHS} more` : '');
  const read = outside.length > 0 ? `\nYour worktree has files outside that tree which the clean room does not: ${shown}. Your run may have read them; the commit will not have them.` : '';
  const planted = first.ignoredReports.length > 0 ? `\nReport files that were there before the run started do not count: ${first.ignoredReports.join(', ')}.` : '';
  const refusal =
    `tests passed in your worktree, but NOT on the tree that would be committed (${tree}), run in a clean room ` +
    `(only that tree's files plus what setup installed before you started; ${describeExit(first.result, ctx.limits.testTimeoutSec)}): ` +
    `not verified: ${decision.reason}.${read}${planted}\n` +
    'Make the committed files pass on their own (edit the sources or tests so they do not depend on files outside the tree), then run_tests again.\n' +
    `${testChangeLines(first.report, decision.comparison)}\n${tail}\n[full clean-room output: ${last.outputFile} (read_file it)]`;
  return { ...verdict, refusal };
}

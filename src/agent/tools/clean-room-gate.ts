import { runTestCommand, testOutputTail, type TestRun } from '../test-run.js';
import { clipHeadTail } from '../../util/clip.js';
import { decideVerification, needsRerun, type RunOutcome, type VerifyDecision } from '../../verify/verify-policy.js';
import type { CleanRoom } from '../../workspace/clean-room.js';
import { describeExit } from './command-output.js';
import { testChangeLines } from './test-verdict-text.js';
import type { ToolContext } from './types.js';

const SHOWN_PATHS = 10;

/** The gate's yes: the room's run and what it cost. */
export interface GatePassed {
  decision: VerifyDecision;
  run: TestRun;
  outcome: RunOutcome;
  tail: string;
  timings: CleanRoom['timings'];
  refusal: null;
}

/** A yes, or a no with what the model reads: why, what differed from its worktree, and the gate's own output. */
export type GateVerdict = GatePassed | { refusal: string };

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
  if (room.setupDirsInTree.length > 0) {
    await room.dispose();
    return { refusal: intoSetupDirs(tree, room.setupDirsInTree) };
  }
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
  if (decision.verified) return { decision, run: first, outcome: firstOutcome, tail, timings: room.timings, refusal: null };
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
  return { refusal };
}

/**
 * The no for a tree that adds files inside what setup installed: a runner, a module or a shim put
 * into node_modules or a venv would be committed and pass for the fix (the repository does not
 * ignore the directory, so the tree hash counts them). A dependency changes through the manifest and
 * the lockfile, which setup installs.
 */
function intoSetupDirs(tree: string, dirs: readonly string[]): string {
  const shown = dirs.slice(0, SHOWN_PATHS).join(', ') + (dirs.length > SHOWN_PATHS ? ` and ${dirs.length - SHOWN_PATHS} more` : '');
  return (
    `not verified: the tree that would be committed (${tree}) has files inside ${shown}, which the setup step installed: ` +
    'a fix never changes the installed dependencies. Delete what you wrote there (your worktree keeps what setup installed), ' +
    'change the manifest and the lockfile instead if the fix needs another dependency, then run_tests again.'
  );
}

import type { EnvironmentEvidence } from '../verify/environment-evidence.js';
import { readJournal } from '../agent/journal.js';
import { runOrResume } from '../agent/resume.js';
import { systemPrompt } from '../agent/prompt.js';
import type { AgentDeps, AgentOutcome } from '../agent/types.js';
import { baselineSentence, type BaselineSummary } from '../verify/test-evidence.js';
import { describeSecrets, scanAddedLines } from '../verify/secret-scan.js';
import { addedLines } from '../workspace/added-lines.js';
import { assembleFix, type AssembledFix } from './assemble-fix.js';
import { baselineNote } from './baseline-note.js';
import { runBaseline } from './baseline-phase.js';
import type { FixEvent } from './fix-event.js';
import { NoTestCommandError, type FixInput } from './fix-input.js';
import type { Published } from './publisher.js';
import type { RunState } from './run-state.js';
import { dependencyState, runSetup, setupNote, setupSummary } from './setup-phase.js';

export type FixResult = (
  | { status: 'published'; outcome: AgentOutcome; published: Published }
  | { status: 'not_verified'; outcome: AgentOutcome; reason: string }
) & {
  baseline?: BaselineSummary;
  /** The baseline in one line, as the fix's events said it ("on main: 12 tests, 1 failing: a"). */
  baselineLine?: string;
  /** The connections setup made (and those refused). */
  egress?: NonNullable<RunState['setup']>['egress'];
  /** The environment image every command ran in, pinned by digest; absent: the host's userland. */
  environment?: EnvironmentEvidence;
};

/**
 * The one door of a fix: setup → baseline → agent → gate → publish, told as events
 * (fix-event.ts). Each effect is recorded (run state, agent journal) before the next phase, so
 * calling this again after a crash continues where it stopped and repeats nothing that already
 * happened. Without a test command it stops before setup and any model call (NoTestCommandError).
 * When a limit stopped the job, that limit (a SandboxLimitError) is why it ended, whatever the
 * abort made of the step it was in.
 */
export async function runFix(input: FixInput): Promise<FixResult> {
  if (!input.commands.verify) throw new NoTestCommandError();
  const fix = assembleFix(input);
  const initial: RunState = { task: input.task, baseCommit: input.workspace.baseCommit, createdAt: input.now(), commands: input.commands };
  try {
    return await sequence(input, fix, fix.state.get() ?? initial);
  } catch (error) {
    throw input.sandbox.signal.aborted ? input.sandbox.signal.reason : error;
  }
}

async function sequence(input: FixInput, fix: AssembledFix, resumed: RunState): Promise<FixResult> {
  const emit = (event: FixEvent) => input.onEvent?.(event);
  let state = resumed;
  fix.state.set(state);

  const setup = state.commands.setup;
  if (setup && !state.setup) {
    emit({ type: 'phase', phase: 'setup', state: 'running', detail: setup });
    const managerCache = await fix.managerCache?.();
    const done = await runSetup({ ...fix.setup, ...(managerCache ? { managerCache } : {}) }, setup);
    fix.signal.throwIfAborted();
    // Before the agent acts: the dependency state the clean room restores (DESIGN §3.2).
    const kept = await input.workspace.keepSetupState(input.sandbox.owner);
    state = { ...state, setup: { ...done, dependencyState: { digest: kept.digest, files: kept.files, bytes: kept.bytes, refused: kept.refused } } };
    fix.state.set(state);
  }
  if (setup && state.setup) emit({ type: 'phase', phase: 'setup', state: 'done', detail: setupSummary(setup, state.setup), setup: state.setup });
  if (!setup) emit({ type: 'phase', phase: 'setup', state: 'skipped', detail: 'no setup command' });

  const verify = state.commands.verify;
  const tests = input.tests;
  if (verify && tests && !state.baseline) {
    emit({ type: 'phase', phase: 'baseline', state: 'running', detail: verify });
    const b = await runBaseline({ workspace: input.workspace, sandbox: input.sandbox, timeoutMs: tests.timeoutMs, cacheDir: tests.cacheDir, signal: fix.signal }, { verify, setup: setup ?? null, dependencies: dependencyState(state) });
    fix.signal.throwIfAborted();
    state = { ...state, baseline: { summary: b.summary, report: b.report, cached: b.cached, artefacts: b.artefacts } };
    fix.state.set(state);
  }
  const baselineLine = tests && state.baseline ? baselineSentence(state.baseline.summary, tests.where) : null;
  if (baselineLine && state.baseline) emit({ type: 'phase', phase: 'baseline', state: 'done', detail: baselineLine, cached: state.baseline.cached });
  else emit({ type: 'phase', phase: 'baseline', state: 'skipped', detail: 'no test command' });
  const notes = [setup && state.setup ? setupNote(setup, state.setup) : null, tests && baselineLine ? baselineNote(baselineLine, tests.mode, state.baseline?.summary ?? null, state.baseline?.artefacts ?? []) : null];
  const note = notes.filter((n): n is string => n !== null).join('\n\n') || null;

  emit({ type: 'phase', phase: 'agent', state: 'running', detail: input.model.name });
  const outcome = await runAgent(input, fix, state, note);
  const extra = { ...environmentOf(input), ...(state.baseline ? { baseline: state.baseline.summary } : {}), ...(baselineLine ? { baselineLine } : {}), ...(state.setup?.egress ? { egress: state.setup.egress } : {}) };
  if (outcome.status !== 'verified' || !outcome.verified) {
    return { status: 'not_verified', outcome, reason: outcome.reason, ...extra };
  }
  if (state.published) {
    emit({ type: 'phase', phase: 'publish', state: 'done', detail: publishedDetail(state.published) });
    return { status: 'published', outcome, published: state.published, ...extra };
  }

  // The gate: what gets committed is what was tested, checked once more outside the agent.
  emit({ type: 'phase', phase: 'agent', state: 'done', detail: `${outcome.steps} steps` });
  emit({ type: 'phase', phase: 'gate', state: 'running', detail: outcome.verified.tree });
  if (!outcome.verified.cleanRoom) {
    return { status: 'not_verified', outcome, reason: `tree ${outcome.verified.tree} passed only in the worktree, never in the clean room: not published`, ...extra };
  }
  const current = await input.workspace.treeHash();
  if (current !== outcome.verified.tree) {
    return { status: 'not_verified', outcome, reason: `the tree changed after verification (${current} ≠ ${outcome.verified.tree})`, ...extra };
  }
  // `finish` already refused these; checked again here, at the last step before any push.
  const secrets = scanAddedLines(await addedLines(input.workspace.gitDir, state.baseCommit, current));
  if (secrets.length > 0) {
    return { status: 'not_verified', outcome, reason: `the change adds what looks like a credential: not published\n${describeSecrets(secrets)}`, ...extra };
  }

  fix.signal.throwIfAborted();
  emit({ type: 'phase', phase: 'gate', state: 'done', detail: `tree ${outcome.verified.tree.slice(0, 12)}` });
  emit({ type: 'phase', phase: 'publish', state: 'running', detail: outcome.verified.tree });
  const published = await fix.publisher.publish({
    verified: outcome.verified,
    baseCommit: state.baseCommit,
    task: state.task,
    summary: outcome.summary ?? '',
    tokens: outcome.tokens,
    date: new Date(state.createdAt),
    ...environmentOf(input),
  });
  fix.state.set({ ...state, published });
  emit({ type: 'phase', phase: 'publish', state: 'done', detail: publishedDetail(published) });
  return { status: 'published', outcome, published, ...extra };
}

/** The job sandbox's image as the evidence names it, spread into a result or a publish. */
function environmentOf(input: FixInput): { environment?: EnvironmentEvidence } {
  const image = input.sandbox.image;
  return image ? { environment: { image: image.reference, digest: image.digest } } : {};
}

/** The agent, started or resumed from its journal, with the setup and baseline notes after the task. */
async function runAgent(input: FixInput, fix: AssembledFix, state: RunState, note: string | null): Promise<AgentOutcome> {
  const records = readJournal(input.journal);
  const journal = fix.openJournal(input.journal);
  // The next clean room, staged while the model works: a verdict only brings it to its tree (room-staging.ts).
  const rooms = input.workspace.prepareCleanRooms(input.sandbox.owner);
  try {
    const tests = input.tests;
    const testPolicy = tests ? { mode: tests.mode, baseline: state.baseline?.report ?? null, baselineSummary: state.baseline?.summary ?? null, allowRemovedTests: tests.allowRemovedTests === true } : undefined;
    const toolContext = testPolicy ? { ...fix.agent.toolContext, tests: testPolicy } : fix.agent.toolContext;
    const agentDeps: AgentDeps = { ...fix.agent, toolContext, journal };
    const task = note ? `${state.task}\n\n${note}` : state.task;
    return await runOrResume(agentDeps, { task, systemPrompt: systemPrompt(fix.agentsMd, state.commands.verify) }, records);
  } finally {
    journal.close();
    await rooms.stop();
  }
}

/** Where a published fix went, in a few words: the PR's number, else the branch. */
function publishedDetail(published: Published): string {
  return published.pullRequest ? `#${published.pullRequest.number}` : published.branch;
}

import { readJournal, type FileJournal } from '../agent/journal.js';
import { runOrResume } from '../agent/resume.js';
import { systemPrompt } from '../agent/prompt.js';
import type { AgentDeps, AgentOutcome } from '../agent/types.js';
import type { SandboxRunner } from '../sandbox/types.js';
import type { ObservableWorkspace } from '../workspace/types.js';
import type { Published, Publisher } from './publisher.js';
import type { RunState, RunStateStore } from './run-state.js';
import { dependencyState, runSetup, setupNote, type SetupDeps, type SetupResult } from './setup-phase.js';
import { baselineNote } from './baseline-note.js';
import { runBaseline } from './baseline-phase.js';
import { baselineSentence, type BaselineSummary } from '../verify/test-evidence.js';
import type { VerifyMode } from '../verify/verify-policy.js';
import { describeSecrets, scanAddedLines } from '../verify/secret-scan.js';
import { addedLines } from '../workspace/added-lines.js';

export interface FixPaths {
  journal: string;
}

export interface FixDeps {
  workspace: ObservableWorkspace;
  sandbox: SandboxRunner;
  publisher: Publisher;
  paths: FixPaths;
  /** The state file's `fix` section (state-file.ts). */
  state: RunStateStore;
  /** The agent's dependencies minus what this module supplies (the journal). */
  agent: Omit<AgentDeps, 'journal'>;
  /** Opens the agent's journal (appending to what is there). */
  openJournal(path: string): FileJournal;
  setupTimeoutMs: number;
  /** The repository's `network.allow`: the only domains setup may reach (empty: any public host). */
  setupAllow?: readonly string[];
  agentsMd: string | null;
  /** The dependency cache and the package managers' cache of the setup step, when on. */
  setup?: Pick<SetupDeps, 'cache' | 'warn'> & { managerCache?: () => Promise<SetupDeps['managerCache']> };
  /** The baseline run and verify_mode; absent = no baseline, all_pass. */
  tests?: FixTestsDeps;
  onPhase?: (phase: 'setup' | 'baseline' | 'agent' | 'gate' | 'publish', detail: string) => void;
  /** What the baseline found, one line ("on main: 12 tests, 1 failing: a"); `cached` when not run again. */
  onBaseline?: (line: string, cached: boolean) => void;
  /** How setup ended (also on a resumed run), before the agent starts. */
  onSetupDone?: (setup: SetupResult) => void;
}

export interface FixTestsDeps {
  mode: VerifyMode;
  /** Host-owned baseline cache (baseline-cache.ts `baselineCacheDir`). */
  cacheDir: string;
  timeoutMs: number;
  /** How the base is named to people: "main", "feature-x @ 1a2b3c4". */
  where: string;
  /** The repository's `tests.allow_removed` (default false). */
  allowRemovedTests?: boolean;
}

export type FixResult = (
  | { status: 'published'; outcome: AgentOutcome; published: Published }
  | { status: 'not_verified'; outcome: AgentOutcome; reason: string }
) & { baseline?: BaselineSummary; egress?: NonNullable<RunState['setup']>['egress'] };

/**
 * The one place that sequences a fix: setup → agent → gate → publish. Each effect is recorded
 * (run state, agent journal) before the next phase, so calling this again after a crash continues
 * where it stopped and repeats nothing that already happened.
 */
export async function runFix(deps: FixDeps, initial: RunState): Promise<FixResult> {
  let state = deps.state.get() ?? initial;
  deps.state.set(state);

  const setup = state.commands.setup;
  if (setup && !state.setup) {
    deps.onPhase?.('setup', setup);
    const signal = deps.agent.toolContext.signal;
    const egressAllow = deps.setupAllow ?? [];
    const managerCache = await deps.setup?.managerCache?.();
    const setupDeps: SetupDeps = {
      workspace: deps.workspace,
      sandbox: deps.sandbox,
      timeoutMs: deps.setupTimeoutMs,
      egressAllow,
      ...(signal ? { signal } : {}),
      ...(deps.setup?.cache ? { cache: deps.setup.cache } : {}),
      ...(deps.setup?.warn ? { warn: deps.setup.warn } : {}),
      ...(managerCache ? { managerCache } : {}),
    };
    const done = await runSetup(setupDeps, setup);
    signal?.throwIfAborted();
    // Before the agent acts: the dependency state the clean room restores (DESIGN §3.2).
    const kept = await deps.workspace.keepSetupState(deps.agent.toolContext.fileOwner);
    state = { ...state, setup: { ...done, dependencyState: { digest: kept.digest, files: kept.files, bytes: kept.bytes, refused: kept.refused } } };
    deps.state.set(state);
  }
  if (setup && state.setup) deps.onSetupDone?.(state.setup);
  const verify = state.commands.verify;
  if (verify && deps.tests && !state.baseline) {
    deps.onPhase?.('baseline', verify);
    const signal = deps.agent.toolContext.signal;
    const b = await runBaseline({ workspace: deps.workspace, sandbox: deps.sandbox, timeoutMs: deps.tests.timeoutMs, cacheDir: deps.tests.cacheDir, ...(signal ? { signal } : {}) }, { verify, setup: setup ?? null, dependencies: dependencyState(state) });
    signal?.throwIfAborted();
    state = { ...state, baseline: { summary: b.summary, report: b.report, cached: b.cached, artefacts: b.artefacts } };
    deps.state.set(state);
  }
  const baselineLine = deps.tests && state.baseline ? baselineSentence(state.baseline.summary, deps.tests.where) : null;
  if (baselineLine && state.baseline) deps.onBaseline?.(baselineLine, state.baseline.cached);
  const notes = [setup && state.setup ? setupNote(setup, state.setup) : null, deps.tests && baselineLine ? baselineNote(baselineLine, deps.tests.mode, state.baseline?.summary ?? null, state.baseline?.artefacts ?? []) : null];
  const note = notes.filter((n): n is string => n !== null).join('\n\n') || null;

  deps.onPhase?.('agent', deps.agent.model.name);
  const records = readJournal(deps.paths.journal);
  const journal = deps.openJournal(deps.paths.journal);
  let outcome: AgentOutcome;
  try {
    const tests = deps.tests ? { mode: deps.tests.mode, baseline: state.baseline?.report ?? null, baselineSummary: state.baseline?.summary ?? null, allowRemovedTests: deps.tests.allowRemovedTests === true } : undefined;
    const toolContext = tests ? { ...deps.agent.toolContext, tests } : deps.agent.toolContext;
    const agentDeps: AgentDeps = { ...deps.agent, toolContext, journal };
    const task = note ? `${state.task}\n\n${note}` : state.task;
    outcome = await runOrResume(agentDeps, { task, systemPrompt: systemPrompt(deps.agentsMd, state.commands.verify) }, records);
  } finally {
    journal.close();
  }
  const extra = { ...(state.baseline ? { baseline: state.baseline.summary } : {}), ...(state.setup?.egress ? { egress: state.setup.egress } : {}) };
  if (outcome.status !== 'verified' || !outcome.verified) {
    return { status: 'not_verified', outcome, reason: outcome.reason, ...extra };
  }

  if (state.published) return { status: 'published', outcome, published: state.published, ...extra };

  // The gate: what gets committed is what was tested, checked once more outside the agent.
  deps.onPhase?.('gate', outcome.verified.tree);
  if (!outcome.verified.cleanRoom) {
    return { status: 'not_verified', outcome, reason: `tree ${outcome.verified.tree} passed only in the worktree, never in the clean room: not published`, ...extra };
  }
  const current = await deps.workspace.treeHash();
  if (current !== outcome.verified.tree) {
    return { status: 'not_verified', outcome, reason: `the tree changed after verification (${current} ≠ ${outcome.verified.tree})`, ...extra };
  }
  // `finish` already refused these; checked again here, at the last step before any push.
  const secrets = scanAddedLines(await addedLines(deps.workspace.gitDir, state.baseCommit, current));
  if (secrets.length > 0) {
    return { status: 'not_verified', outcome, reason: `the change adds what looks like a credential: not published\n${describeSecrets(secrets)}`, ...extra };
  }

  deps.agent.toolContext.signal?.throwIfAborted();
  deps.onPhase?.('publish', outcome.verified.tree);
  const published = await deps.publisher.publish({
    verified: outcome.verified,
    baseCommit: state.baseCommit,
    task: state.task,
    summary: outcome.summary ?? '',
    tokens: outcome.tokens,
    date: new Date(state.createdAt),
  });
  deps.state.set({ ...state, published });
  return { status: 'published', outcome, published, ...extra };
}

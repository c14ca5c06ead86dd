import { openJournal } from '../agent/journal.js';
import { createTools } from '../agent/tools/registry.js';
import type { AgentDeps } from '../agent/types.js';
import type { ModelPrice } from '../model/prices.js';
import type { ChatModel } from '../model/types.js';
import { DEFAULT_MAX_REPLY_TOKENS, type CostBudget } from '../agent/cost-budget.js';
import { contextForModel } from './context-for-model.js';
import type { JobSandbox } from '../sandbox/types.js';
import type { DepCache } from '../workspace/dep-cache.js';
import type { DepCacheScope } from '../workspace/dep-cache-scope.js';
import { detectCommands } from '../workspace/detect-commands.js';
import type { Commands, ObservableWorkspace } from '../workspace/types.js';
import { readAgentsMd } from './agents-md.js';
import { FIX_TOOL_LIMITS, SETUP_TIMEOUT_MS } from './defaults.js';
import type { FixWrappers } from './fix-wrappers.js';
import { prepareManagerCache } from './manager-cache.js';
import type { Publisher } from './publisher.js';
import { runFix, type FixDeps, type FixResult } from './run-fix.js';
import type { RunState, RunStateStore } from './run-state.js';

/** The budgets of one fix; defaults in config/budget-defaults.ts, the same for CLI and app. */
export interface FixBudgets {
  maxSteps: number;
  maxTokens: number;
  timeoutMinutes: number;
  /** Most tokens sent per model request. */
  contextTokens: number;
  /** `max_cost_usd` / `--max-cost`: USD, checked with the worst case of every next call. */
  maxCostUsd?: number;
}

/** What a caller (the CLI, a job) supplies; everything else about a fix is decided here. */
export interface FixSessionInput {
  workspace: ObservableWorkspace;
  commands: Commands;
  budgets: FixBudgets;
  model: ChatModel;
  /** The model's price (model/prices.ts `priceOf`); null or absent: cost unknown. */
  price?: ModelPrice | null;
  /** The job's own sandbox (Sandbox.forJob): its uid owns the files the tools create. */
  sandbox: JobSandbox;
  publisher: Publisher;
  /** The state file's `fix` section. */
  state: RunStateStore;
  journal: string;
  /** How this process wraps the fix's effects (journal, publisher, state); applied here, once. */
  wrap: FixWrappers;
  /** Added after the repository's AGENTS.md (the repo config's `instructions`). */
  instructions: string | null;
  /** Recorded in the journal's start record. */
  jobId?: string;
  /**
   * The setup step's caches: the workdir's dependency cache, the package managers' caches' root
   * (`<workdir>/package-cache`), and the repository and ref they are kept for (dep-cache-scope.ts).
   * Absent: setup as it was.
   */
  caches?: { deps: DepCache; managerDir: string; scope: DepCacheScope };
  /** Hears why a worktree file (AGENTS.md) was not read (a symlink, FIFO, too large…). */
  warn?: (message: string) => void;
  signal?: AbortSignal;
  now: () => number;
  /** The baseline run and verify_mode (fix/baseline-phase.ts). */
  tests?: FixDeps['tests'];
  onPhase?: FixDeps['onPhase'];
  /** The repository's `network.allow` (the app); the CLI has none. */
  setupAllow?: readonly string[];
  onSetupDone?: FixDeps['onSetupDone'];
  onBaseline?: FixDeps['onBaseline'];
  onEvent?: AgentDeps['onEvent'];
}

/**
 * No test command was given or detected: nothing could ever be verified, so no model is asked.
 * The caller adds how to give one (`--verify CMD`, `verify:` in .github/greenfix.yml).
 */
export class NoTestCommandError extends Error {
  override readonly name = 'NoTestCommandError';
  constructor() {
    super('no test command: greenfix found none to run (no package.json test script, pytest, go.mod, Cargo.toml or Makefile `test` target), so no fix could be verified; the model was not asked');
  }
}

/** Command overrides as given: a string wins, an absent key (undefined) means "detect". */
export interface CommandChoice {
  verify: string | undefined;
  setup: string | undefined;
}

/**
 * The commands of a fix: the saved ones when resuming (a resumed run never re-detects), else
 * detection with a key overriding it only when present. Both entry points call this.
 */
export function fixCommands(root: string, saved: RunState | undefined, choice: CommandChoice, warn?: (message: string) => void): Commands {
  if (saved) return saved.commands;
  const overrides = {
    ...(choice.verify !== undefined ? { verify: choice.verify } : {}),
    ...(choice.setup !== undefined ? { setup: choice.setup } : {}),
  };
  return detectCommands(root, overrides, warn);
}

/** The one assembly of a fix: caller's input → runFix's dependencies, agent deps included. */
export function fixDeps(input: FixSessionInput): FixDeps {
  const { workspace, sandbox, commands, budgets } = input;
  // A limit that stops the job (the disk watchdog) aborts the run like a cancel.
  const signal = input.signal ? AbortSignal.any([input.signal, sandbox.signal]) : sandbox.signal;
  const agentsMd = [readAgentsMd(workspace.root, input.warn), input.instructions].filter(Boolean).join('\n\n') || null;
  return {
    workspace,
    sandbox,
    publisher: input.wrap.publisher(input.publisher),
    paths: { journal: input.journal },
    state: input.wrap.state(input.state),
    openJournal: (path) => input.wrap.journal(openJournal(path)),
    setupTimeoutMs: SETUP_TIMEOUT_MS,
    ...(input.caches ? { setup: setupCaches(input, input.caches) } : {}),
    agentsMd,
    ...(input.tests ? { tests: input.tests } : {}),
    ...(input.onPhase ? { onPhase: input.onPhase } : {}),
    setupAllow: input.setupAllow ?? [],
    ...(input.onSetupDone ? { onSetupDone: input.onSetupDone } : {}),
    ...(input.onBaseline ? { onBaseline: input.onBaseline } : {}),
    agent: {
      model: input.model,
      tools: createTools(),
      toolContext: {
        workspace,
        sandbox,
        verifyCommand: commands.verify,
        fileOwner: sandbox.owner,
        limits: FIX_TOOL_LIMITS,
        signal,
      },
      budget: { maxSteps: budgets.maxSteps, maxTokens: budgets.maxTokens, maxWallMs: budgets.timeoutMinutes * 60_000, ...costBudget(input) },
      context: contextForModel(input.model, budgets.contextTokens),
      now: input.now,
      ...(input.onEvent ? { onEvent: input.onEvent } : {}),
      config: {
        ...(input.jobId !== undefined ? { jobId: input.jobId } : {}),
        maxSteps: budgets.maxSteps,
        maxTokens: budgets.maxTokens,
        ...(budgets.maxCostUsd !== undefined ? { maxCostUsd: budgets.maxCostUsd } : {}),
        verify: commands.verify,
        setup: commands.setup,
      },
    },
  };
}

function costBudget(input: FixSessionInput): { cost?: CostBudget } {
  const maxUsd = input.budgets.maxCostUsd;
  if (maxUsd === undefined) return {};
  return { cost: { maxUsd, price: input.price ?? null, model: input.model.name, maxReplyTokens: DEFAULT_MAX_REPLY_TOKENS } };
}

/**
 * Restored files go to the job's uid (the sandbox's owner); the uid scheme is part of the key. The
 * managers' caches are bound only into a real sandbox (unsandboxed, the user's own caches apply).
 */
function setupCaches(input: FixSessionInput, caches: NonNullable<FixSessionInput['caches']>): NonNullable<FixDeps['setup']> {
  const owner = input.sandbox.owner;
  return {
    cache: { cache: caches.deps, scope: caches.scope, uidScheme: owner ? 'per-job-uid' : 'current-user', owner },
    ...(input.warn ? { warn: input.warn } : {}),
    ...(input.sandbox.kind === 'bwrap' ? { managerCache: () => prepareManagerCache(caches.managerDir, caches.scope, owner) } : {}),
  };
}

/**
 * Runs (or resumes) the fix of `task`; a fresh run records its base, commands and date first.
 * Without a test command it stops before setup and before any model call (NoTestCommandError).
 * When a limit stopped the job, that limit (a SandboxLimitError) is why it ended, whatever the
 * abort made of the step it was in.
 */
export async function runFixSession(input: FixSessionInput, task: string): Promise<FixResult> {
  if (!input.commands.verify) throw new NoTestCommandError();
  const initial: RunState = { task, baseCommit: input.workspace.baseCommit, createdAt: input.now(), commands: input.commands };
  try {
    return await runFix(fixDeps(input), initial);
  } catch (error) {
    throw input.sandbox.signal.aborted ? input.sandbox.signal.reason : error;
  }
}

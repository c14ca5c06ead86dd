import type { ModelPrice } from '../model/prices.js';
import type { ChatModel } from '../model/types.js';
import type { JobSandbox } from '../sandbox/types.js';
import type { DepCache } from '../workspace/dep-cache.js';
import type { DepCacheScope } from '../workspace/dep-cache-scope.js';
import { detectCommands } from '../workspace/detect-commands.js';
import type { Commands, ObservableWorkspace } from '../workspace/types.js';
import type { VerifyMode } from '../verify/verify-policy.js';
import type { FixListener } from './fix-event.js';
import type { FixWrappers } from './fix-wrappers.js';
import type { Publisher } from './publisher.js';
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

/** The baseline run and verify_mode of a fix. */
export interface FixTests {
  mode: VerifyMode;
  /** Host-owned baseline cache (baseline-cache.ts `baselineCacheDir`). */
  cacheDir: string;
  timeoutMs: number;
  /** How the base is named to people: "main", "feature-x @ 1a2b3c4". */
  where: string;
  /** The repository's `tests.allow_removed` (default false). */
  allowRemovedTests?: boolean;
}

/**
 * Everything a caller (a job, `greenfix fix`, `greenfix chat`) supplies to a fix: the one input of
 * the one door (run-fix.ts). Everything else about a fix is decided in fix/.
 */
export interface FixInput {
  /** What to fix: the task text (recorded on a fresh run; a resumed run keeps its own). */
  task: string;
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
  /** How this process wraps the fix's effects (journal, publisher, state); applied once, by the assembly. */
  wrap: FixWrappers;
  /** Added after the repository's AGENTS.md (the repo config's `instructions`). */
  instructions: string | null;
  /** Recorded in the journal's start record. */
  jobId?: string;
  /**
   * The setup step's caches: the workdir's dependency cache, the package managers' caches' root
   * (`<workdir>/package-cache`), and the repository and ref they are kept for (dep-cache-scope.ts).
   * Absent: setup without caches.
   */
  caches?: { deps: DepCache; managerDir: string; scope: DepCacheScope };
  /** Hears why a worktree file (AGENTS.md) was not read (a symlink, FIFO, too large…). */
  warn?: (message: string) => void;
  /** Stops the fix (a cancelled job, a signal); the sandbox's own limits stop it too. */
  signal?: AbortSignal;
  now: () => number;
  /** The baseline run and verify_mode; absent = no baseline, all_pass. */
  tests?: FixTests;
  /** The repository's `network.allow`: the only domains setup may reach (the app); the CLI has none. */
  setupAllow?: readonly string[];
  /**
   * The operator's setup secrets this repository was granted (name → value): only in the setup
   * step's environment (sandbox/types.ts `secrets`), scrubbed from what it wrote and printed.
   */
  setupSecrets?: Readonly<Record<string, string>>;
  /** Hears the fix's events (fix-event.ts). */
  onEvent?: FixListener;
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
 * detection with a key overriding it only when present. Every entry point calls this.
 */
export function fixCommands(root: string, saved: RunState | undefined, choice: CommandChoice, warn?: (message: string) => void): Commands {
  if (saved) return saved.commands;
  const overrides = {
    ...(choice.verify !== undefined ? { verify: choice.verify } : {}),
    ...(choice.setup !== undefined ? { setup: choice.setup } : {}),
  };
  return detectCommands(root, overrides, warn);
}

import type { FixSessionInput } from '../fix/fix-session.js';
import { baselineCacheDir } from '../fix/baseline-cache.js';
import { FIX_TOOL_LIMITS } from '../fix/defaults.js';
import { localPublisher } from '../fix/local-publisher.js';
import { setupSummary } from '../fix/setup-phase.js';
import type { ModelPrice } from '../model/prices.js';
import type { ChatModel } from '../model/types.js';
import type { JobSandbox } from '../sandbox/types.js';
import type { Commands, ObservableWorkspace } from '../workspace/types.js';
import { crashWrappers } from './crash-wrappers.js';
import type { FixOptions } from './fix-options.js';
import type { LocalRun, LocalState } from './local-run.js';
import { formatEvent } from './progress.js';

export interface LocalSessionParts {
  options: FixOptions;
  run: LocalRun;
  state: LocalState;
  workspace: ObservableWorkspace;
  commands: Commands;
  model: ChatModel;
  /** Absent: cost unknown. */
  price?: ModelPrice | null;
  /** The run's own sandbox (Sandbox.forJob). */
  sandbox: JobSandbox;
  env: Readonly<Record<string, string | undefined>>;
  stderr: (line: string) => void;
  /** The setup step's caches (fix-command.ts builds them from GREENFIX_CACHE_MB). */
  caches?: FixSessionInput['caches'];
  /** How the base is named to people ("main @ 1a2b3c4"); default "the base". */
  baseName?: string;
}

/** What `greenfix fix` supplies to the one assembly (fix/fix-session.ts); the job's twin is jobSessionInput. */
export function localSessionInput(parts: LocalSessionParts): FixSessionInput {
  const { options, run, stderr } = parts;
  return {
    workspace: parts.workspace,
    commands: parts.commands,
    budgets: {
      maxSteps: options.maxSteps,
      maxTokens: options.maxTokens,
      timeoutMinutes: options.timeoutMinutes,
      contextTokens: options.contextTokens,
      ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
    },
    model: parts.model,
    price: parts.price ?? null,
    sandbox: parts.sandbox,
    publisher: localPublisher(run.repo, run.branch),
    state: parts.state.fixStore(),
    journal: run.journal,
    wrap: crashWrappers(parts.env),
    instructions: null,
    ...(parts.caches ? { caches: parts.caches } : {}),
    warn: (message) => stderr(`greenfix: warning: ${message}`),
    now: Date.now,
    tests: { mode: options.verifyMode ?? 'all_pass', cacheDir: baselineCacheDir(run.workdir), timeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, where: parts.baseName ?? 'the base', allowRemovedTests: options.allowRemovedTests === true },
    onPhase: (phase, detail) => stderr(`greenfix: ${phase}: ${detail}`),
    onSetupDone: (setup) => stderr(`greenfix: setup: done: ${setupSummary(parts.commands.setup ?? '', setup)}`),
    onBaseline: (line, cached) => stderr(`greenfix: baseline ${line}${cached ? ' (cached: not run again)' : ''}`),
    onEvent: (event) => {
      const line = formatEvent(event, parts.model.name, parts.price ?? null);
      if (line) stderr(line);
    },
  };
}

import type { FixInput } from '../fix/fix-input.js';
import type { FixEvent } from '../fix/fix-event.js';
import { baselineCacheDir } from '../fix/baseline-cache.js';
import { FIX_TOOL_LIMITS } from '../fix/defaults.js';
import { localPublisher } from '../fix/local-publisher.js';
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
  caches?: FixInput['caches'];
  /** How the base is named to people ("main @ 1a2b3c4"); default "the base". */
  baseName?: string;
  /** What the sandbox sees of the user's toolchains (local-sandbox.ts `toolchainEnvironment`): baselines are kept per value. */
  environment?: string;
}

/** What `greenfix fix` supplies to the fix's one door (fix/run-fix.ts); the job's twin is jobFixInput. */
export function localFixInput(parts: LocalSessionParts): FixInput {
  const { options, run, stderr } = parts;
  return {
    task: options.task,
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
    tests: { mode: options.verifyMode ?? 'all_pass', cacheDir: baselineCacheDir(run.workdir, parts.environment), timeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, where: parts.baseName ?? 'the base', allowRemovedTests: options.allowRemovedTests === true },
    onEvent: (event) => {
      const line = progressLine(event, parts);
      if (line) stderr(line);
    },
  };
}

/** A fix's event as the CLI's progress line on stderr, or null for one it does not show. */
function progressLine(event: FixEvent, parts: LocalSessionParts): string | null {
  if (event.type === 'agent') return formatEvent(event.event, parts.model.name, parts.price ?? null);
  if (event.state === 'running') return `greenfix: ${event.phase}: ${event.detail}`;
  if (event.state !== 'done') return null;
  if (event.phase === 'setup') return `greenfix: setup: done: ${event.detail}`;
  if (event.phase === 'baseline') return `greenfix: baseline ${event.detail}${event.cached ? ' (cached: not run again)' : ''}`;
  return null;
}

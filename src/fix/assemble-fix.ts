import type { FileJournal } from '../agent/journal.js';
import { openJournal } from '../agent/journal.js';
import { createTools } from '../agent/tools/registry.js';
import type { AgentDeps } from '../agent/types.js';
import { DEFAULT_MAX_REPLY_TOKENS, type CostBudget } from '../agent/cost-budget.js';
import { readAgentsMd } from './agents-md.js';
import { contextForModel } from './context-for-model.js';
import { FIX_TOOL_LIMITS, SETUP_TIMEOUT_MS } from './defaults.js';
import type { FixInput } from './fix-input.js';
import { prepareManagerCache } from './manager-cache.js';
import type { Publisher } from './publisher.js';
import type { RunStateStore } from './run-state.js';
import { setupCache, type SetupDeps } from './setup-phase.js';

/** A fix's parts, assembled once from its input: what run-fix.ts sequences (and chat drives by hand). */
export interface AssembledFix {
  /** The caller's signal and the sandbox's limits (the disk watchdog) as one. */
  signal: AbortSignal;
  publisher: Publisher;
  /** The state file's `fix` section, wrapped. */
  state: RunStateStore;
  /** The agent's dependencies minus its journal (opened by the fix, appending to what is there). */
  agent: Omit<AgentDeps, 'journal'>;
  openJournal(path: string): FileJournal;
  /** The repository's AGENTS.md and the repo config's `instructions`, or null. */
  agentsMd: string | null;
  /** The setup step's dependencies, minus the package managers' cache (prepared only when setup runs). */
  setup: SetupDeps;
  /** The package managers' cache for setup (a real sandbox only), prepared when setup runs. */
  managerCache?: () => Promise<SetupDeps['managerCache']>;
}

/** The one assembly of a fix: caller's input → the parts, agent deps included. */
export function assembleFix(input: Omit<FixInput, 'task'>): AssembledFix {
  const { workspace, sandbox, commands, budgets } = input;
  // A limit that stops the job (the disk watchdog) aborts the run like a cancel.
  const signal = input.signal ? AbortSignal.any([input.signal, sandbox.signal]) : sandbox.signal;
  const agentsMd = [readAgentsMd(workspace.root, input.warn), input.instructions].filter(Boolean).join('\n\n') || null;
  const onEvent = input.onEvent;
  const owner = sandbox.owner;
  const caches = input.caches;
  return {
    signal,
    publisher: input.wrap.publisher(input.publisher),
    state: input.wrap.state(input.state),
    openJournal: (path) => input.wrap.journal(openJournal(path)),
    agentsMd,
    setup: {
      workspace,
      sandbox,
      timeoutMs: SETUP_TIMEOUT_MS,
      egressAllow: input.setupAllow ?? [],
      ...(input.setupSecrets ? { secrets: input.setupSecrets } : {}),
      signal,
      // Restored files go to the job's uid (the sandbox's owner); the uid scheme is part of the key.
      ...(caches ? { cache: setupCache(caches, owner) } : {}),
      ...(caches && input.warn ? { warn: input.warn } : {}),
    },
    // The managers' caches are bound only into a real sandbox (unsandboxed, the user's own caches apply).
    ...(caches && sandbox.kind === 'bwrap' ? { managerCache: () => prepareManagerCache(caches.managerDir, caches.scope, owner) } : {}),
    agent: {
      model: input.model,
      tools: createTools(),
      toolContext: {
        workspace,
        sandbox,
        verifyCommand: commands.verify,
        fileOwner: owner,
        limits: FIX_TOOL_LIMITS,
        signal,
      },
      budget: { maxSteps: budgets.maxSteps, maxTokens: budgets.maxTokens, maxWallMs: budgets.timeoutMinutes * 60_000, ...costBudget(input) },
      context: contextForModel(input.model, budgets.contextTokens),
      now: input.now,
      ...(onEvent ? { onEvent: (event) => onEvent({ type: 'agent', event }) } : {}),
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

function costBudget(input: Omit<FixInput, 'task'>): { cost?: CostBudget } {
  const maxUsd = input.budgets.maxCostUsd;
  if (maxUsd === undefined) return {};
  return { cost: { maxUsd, price: input.price ?? null, model: input.model.name, maxReplyTokens: DEFAULT_MAX_REPLY_TOKENS } };
}

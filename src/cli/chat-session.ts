import { continueRun } from '../agent/loop.js';
import type { FileJournal } from '../agent/journal.js';
import { repairPending } from '../agent/resume-repair.js';
import { executorOf } from '../agent/dispatch.js';
import { taskMessage as taskMessageOf } from '../agent/prompt.js';
import { record, type AgentState } from '../agent/state.js';
import type { AgentDeps, AgentOutcome } from '../agent/types.js';
import type { ObservableWorkspace } from '../workspace/types.js';

export const INTERRUPTED = '[the user interrupted the last request with Ctrl-C: the running command was stopped; its effects may be partial]';

/** Limits of one request (turn): counted from where the session stands when it starts. */
export interface TurnLimits {
  maxSteps: number;
  maxTokens: number;
  maxWallMs: number;
}

/** One interactive session: the agent's state, its journal, and what the turns did. */
export interface ChatSession {
  deps: Omit<AgentDeps, 'journal'>;
  journal: FileJournal;
  state: AgentState;
  workspace: ObservableWorkspace;
  systemPrompt: string;
  limits: TurnLimits;
  /** The tree before each turn, newest last (`/undo` goes back to the last one). */
  snapshots: string[];
  /** Each request and how it ended, in order (`/history`). */
  turns: Array<{ text: string; outcome: string }>;
  /** Stops every request too: the sandbox's disk watchdog (JobSandbox.signal). */
  stop?: AbortSignal;
}

export type TurnResult = { kind: 'done'; outcome: AgentOutcome } | { kind: 'interrupted' };

/**
 * Runs one request to its end on the session's one journal: the first is the run's start record,
 * later ones a `turn` record, and the loop goes on from the state (earlier turns are context).
 * Ctrl-C aborts `signal`: the sandbox kills the command's process group, and the journal notes it.
 */
export async function runTurn(session: ChatSession, text: string, interrupt: AbortSignal): Promise<TurnResult> {
  const { state, journal } = session;
  const signal = session.stop ? AbortSignal.any([interrupt, session.stop]) : interrupt;
  session.snapshots.push(await session.workspace.treeHash());
  const deps: AgentDeps = {
    ...session.deps,
    journal,
    toolContext: { ...session.deps.toolContext, signal },
    budget: {
      maxSteps: state.steps + session.limits.maxSteps,
      maxTokens: state.tokens.prompt + state.tokens.completion + session.limits.maxTokens,
      maxWallMs: state.priorElapsedMs + session.limits.maxWallMs,
    },
  };
  if (state.pending.length > 0) await repairPending(deps, executorOf(deps), state);
  if (state.messages.length === 0) {
    const start = { type: 'start', task: text, taskMessage: taskMessageOf(text), systemPrompt: session.systemPrompt, model: deps.model.name } as const;
    await record(journal, state, { ...start, config: deps.config ?? {} });
  } else {
    await record(journal, state, { type: 'turn', text });
  }
  try {
    const outcome = await continueRun(deps, state);
    session.turns.push({ text, outcome: `${outcome.status}: ${outcome.summary ?? outcome.reason}` });
    return { kind: 'done', outcome };
  } catch (error) {
    if (!interrupt.aborted) throw error;
    if (state.pending.length > 0) await repairPending({ ...deps, toolContext: session.deps.toolContext }, executorOf(deps), state);
    await record(journal, state, { type: 'observation', step: state.steps, text: INTERRUPTED });
    session.turns.push({ text, outcome: 'interrupted (Ctrl-C)' });
    return { kind: 'interrupted' };
  }
}

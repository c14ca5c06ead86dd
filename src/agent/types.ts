import type { ChatModel, ToolCall } from '../model/types.js';
import type { VerifiedTree } from '../workspace/types.js';
import type { Budget, BudgetName } from './budget.js';
import type { ContextLimits } from './context.js';
import type { Journal } from './journal.js';
import type { Tool, ToolContext, ToolResult } from './tools/types.js';

export type ExecuteToolCall = (tools: readonly Tool[], call: ToolCall, ctx: ToolContext) => Promise<ToolResult>;

export interface AgentDeps {
  model: ChatModel;
  tools: readonly Tool[];
  /** Tool dispatch: validates arguments and never throws on bad input. Default: the registry's. */
  execute?: ExecuteToolCall;
  /** `verified` is the loop's to fill in: it is the run's state, not configuration. */
  toolContext: Omit<ToolContext, 'verified'>;
  journal: Journal;
  budget: Budget;
  context: ContextLimits;
  now: () => number;
  onEvent?: (event: AgentEvent) => void;
  /** Recorded in the journal's start record, for whoever reads it later. */
  config?: Record<string, unknown>;
}

export interface AgentInput {
  /** The untrusted task text; the loop sanitises it (prompt.ts `taskMessage`). */
  task: string;
  systemPrompt: string;
}

export type AgentStatus = 'verified' | 'gave_up' | 'stuck' | 'budget_exhausted' | 'model_error';

export interface Tokens {
  prompt: number;
  completion: number;
  /** The part of `prompt` served from the endpoint's cache; absent when it reported none. */
  cachedPrompt?: number;
  /** Some reply came without usage: its counts are estimates (still counted against the budgets). */
  estimated?: boolean;
}

export interface AgentOutcome {
  status: AgentStatus;
  reason: string;
  summary?: string;
  verified: VerifiedTree | null;
  steps: number;
  tokens: Tokens;
  /** Which budget ran out, with status 'budget_exhausted'. */
  budget?: BudgetName;
  /** The model error's kind and message, with status 'model_error'. */
  error?: { kind: string; message: string };
}

/** Live progress, for a terminal or a status comment. Nothing here is needed to resume. */
export type AgentEvent =
  | { type: 'model'; step: number; tokens: Tokens; toolCalls: number }
  | { type: 'tool'; step: number; name: string; args: string; ok: boolean }
  | { type: 'warning'; step: number; text: string }
  /** The history was compacted: `replaced` messages became a handoff summary of `words` words. */
  | { type: 'compaction'; step: number; replaced: number; words: number }
  | { type: 'done'; outcome: AgentOutcome };

import { ModelError } from '../model/errors.js';
import { toolChars } from '../model/estimate-tokens.js';
import type { ChatResponse, ToolSpec } from '../model/types.js';
import { executeCalls, settle } from './act.js';
import { describeExhausted, exhaustedBudget } from './budget.js';
import { compactHistory } from './compact.js';
import { fitContext, sizeTally, stubOlderResults, type FitOptions } from './context.js';
import { costOverrun } from './cost-budget.js';
import { executorOf } from './dispatch.js';
import { toolSpecs } from './tools/registry.js';
import { endRun, toOutcome } from './outcome.js';
import { taskMessage } from './prompt.js';
import { emptyAgentState, record, type AgentState } from './state.js';
import type { AgentDeps, AgentInput, AgentOutcome } from './types.js';

/** A fresh run: journal the start, then step until an outcome. */
export async function runAgent(deps: AgentDeps, input: AgentInput): Promise<AgentOutcome> {
  const state = emptyAgentState();
  const start = { type: 'start', task: input.task, taskMessage: taskMessage(input.task), systemPrompt: input.systemPrompt, model: deps.model.name } as const;
  await record(deps.journal, state, { ...start, config: deps.config ?? {} });
  return continueRun(deps, state);
}

/** The loop proper, from any state (fresh or rebuilt from a journal). Budgets are checked before every step. */
export async function continueRun(deps: AgentDeps, state: AgentState): Promise<AgentOutcome> {
  const startedAt = deps.now();
  const specs = toolSpecs(deps.tools);
  // The tool schemas' size is the run's: counted once, not at every step's fitting.
  const fit: FitOptions = { ...deps.context, fixedChars: toolChars(specs) };
  // After a failed summary call, the next few steps use stubs only (one retry per few steps).
  const compaction = { notBeforeStep: 0 };
  for (;;) {
    // A cancelled job stops between steps, not only inside a model call or a command.
    deps.toolContext.signal?.throwIfAborted();
    const used = { steps: state.steps, tokens: state.tokens.prompt + state.tokens.completion, elapsedMs: state.priorElapsedMs + deps.now() - startedAt };
    const over = exhaustedBudget(deps.budget, used);
    if (over) return endRun(deps, state, { status: 'budget_exhausted', reason: describeExhausted(over, deps.budget, used), budget: over });
    const outcome = await step(deps, state, specs, fit, compaction);
    if (outcome) return outcome;
  }
}

/** query → execute → settle. Returns the outcome when the run ends here. */
async function step(deps: AgentDeps, state: AgentState, specs: ToolSpec[], fit: FitOptions, compaction: { notBeforeStep: number }): Promise<AgentOutcome | null> {
  const reply = await query(deps, state, specs, fit, compaction);
  if (typeof reply === 'string') return endRun(deps, state, { status: 'budget_exhausted', reason: reply, budget: 'cost' });
  if (reply instanceof ModelError) return modelErrorOutcome(deps, state, reply);
  await record(deps.journal, state, { type: 'assistant', step: state.steps + 1, message: reply.message, usage: reply.usage });
  if (reply.truncated) return modelErrorOutcome(deps, state, truncatedError(deps));
  deps.onEvent?.({ type: 'model', step: state.steps, tokens: { ...state.tokens }, toolCalls: reply.message.toolCalls?.length ?? 0 });
  await executeCalls(deps, executorOf(deps), state);
  return settle(deps, state);
}

const COMPACTION_RETRY_STEPS = 5;

/** The reply, a model error, or why the money budget forbids the call (a string). */
async function query(deps: AgentDeps, state: AgentState, specs: ToolSpec[], fit: FitOptions, compaction: { notBeforeStep: number }): Promise<ChatResponse | ModelError | string> {
  if (deps.context.handoffSummary && state.steps >= compaction.notBeforeStep && !stubOlderResults(state.messages, fit).fits) {
    if (!(await compactHistory(deps, state, fit))) compaction.notBeforeStep = state.steps + COMPACTION_RETRY_STEPS;
  }
  const messages = fitContext(state.messages, fit);
  const cost = deps.budget.cost;
  const overrun = cost ? costOverrun(cost, state.tokens, { estimate: sizeTally(messages, fit).tokens(), lastReported: state.lastPromptTokens }) : null;
  if (overrun) return overrun;
  const limits = { ...(deps.toolContext.signal ? { signal: deps.toolContext.signal } : {}), ...(cost ? { maxTokens: cost.maxReplyTokens } : {}) };
  try {
    return await deps.model.complete({ messages, tools: specs, turn: state.steps, ...limits });
  } catch (err) {
    if (err instanceof ModelError) return err;
    throw err;
  }
}

/**
 * The reply hit its token limit with no tool call (a reasoning model can spend it all thinking):
 * its tokens are counted, and the run ends with a clear outcome instead of taking it for an empty answer.
 */
function truncatedError(deps: AgentDeps): ModelError {
  const limit = deps.budget.cost ? `the ${deps.budget.cost.maxReplyTokens}-token reply limit a cost budget sets` : "the endpoint's reply limit";
  return new ModelError('truncated', `the reply was cut at ${limit} before any tool call (finish_reason: length): a reasoning model spends it thinking; set GREENFIX_REASONING_EFFORT=low`);
}

/** Not journaled as a finish: a retried job resumes and asks the model again. */
async function modelErrorOutcome(deps: AgentDeps, state: AgentState, err: ModelError): Promise<AgentOutcome> {
  await record(deps.journal, state, { type: 'model_error', step: state.steps + 1, kind: err.kind, message: err.message });
  const reason = `model call failed (${err.kind}): ${err.message}`;
  const outcome = toOutcome(state, { status: 'model_error', reason, error: { kind: err.kind, message: err.message } });
  deps.onEvent?.({ type: 'done', outcome });
  return outcome;
}

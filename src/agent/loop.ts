import { ModelError } from '../model/errors.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import type { ChatResponse, ToolSpec } from '../model/types.js';
import { executeCalls, type Acted } from './act.js';
import { describeExhausted, exhaustedBudget } from './budget.js';
import { fitContext } from './context.js';
import { noCrashPoints } from './crash-points.js';
import { executorOf, toolSpecs } from './dispatch.js';
import { endRun, finishEnding, toOutcome, type Ending } from './outcome.js';
import { taskMessage } from './prompt.js';
import { initialStuckState, stuckWarning } from './stuck.js';
import type { AgentDeps, AgentInput, AgentOutcome, RunState } from './types.js';

export const NO_TOOL_CALL =
  'Your reply had no tool call. Act only through tool calls: call a tool for the next step, and call finish when done (finish with gave_up: true if you cannot finish).';

/** A fresh run: journal the start, then step until an outcome. */
export async function runAgent(deps: AgentDeps, input: AgentInput): Promise<AgentOutcome> {
  const task = taskMessage(input.task);
  const config = deps.config ?? {};
  deps.journal.append({ type: 'start', task: input.task, taskMessage: task, systemPrompt: input.systemPrompt, model: deps.model.name, config });
  const messages: RunState['messages'] = [{ role: 'system', content: input.systemPrompt }, { role: 'user', content: task }];
  const state: RunState = { messages, verified: null, steps: 0, tokens: { prompt: 0, completion: 0 }, stuck: initialStuckState, priorElapsedMs: 0 };
  return continueRun(deps, state);
}

/** The loop proper, from any state (fresh or rebuilt from a journal). Budgets are checked before every step. */
export async function continueRun(deps: AgentDeps, state: RunState): Promise<AgentOutcome> {
  const startedAt = deps.now();
  const specs = toolSpecs(deps.tools);
  for (;;) {
    // A cancelled job stops between steps, not only inside a model call or a command.
    deps.toolContext.signal?.throwIfAborted();
    const used = { steps: state.steps, tokens: state.tokens.prompt + state.tokens.completion, elapsedMs: state.priorElapsedMs + deps.now() - startedAt };
    const over = exhaustedBudget(deps.budget, used);
    if (over) return endRun(deps, state, { status: 'budget_exhausted', reason: describeExhausted(over, deps.budget, used), budget: over });
    const ending = await step(deps, state, specs);
    if (ending) return ending;
  }
}

/** query → execute → apply. Returns the outcome when the run ends here. */
async function step(deps: AgentDeps, state: RunState, specs: ToolSpec[]): Promise<AgentOutcome | null> {
  const reply = await query(deps, state, specs);
  if (reply instanceof ModelError) return modelErrorOutcome(deps, state, reply);
  const { message, usage } = reply;
  state.steps += 1;
  state.tokens = { prompt: state.tokens.prompt + usage.promptTokens, completion: state.tokens.completion + usage.completionTokens };
  deps.journal.append({ type: 'assistant', step: state.steps, message, usage });
  (deps.crashPoints ?? noCrashPoints).reach('after_model');
  state.messages.push(message);
  const calls = message.toolCalls ?? [];
  deps.onEvent?.({ type: 'model', step: state.steps, tokens: { ...state.tokens }, toolCalls: calls.length });
  if (calls.length === 0) {
    deps.journal.append({ type: 'observation', step: state.steps, text: NO_TOOL_CALL });
    state.messages.push({ role: 'user', content: NO_TOOL_CALL });
    return null;
  }
  const ending = afterActions(deps, state, await executeCalls(deps, executorOf(deps), state, calls));
  return ending ? endRun(deps, state, ending) : null;
}

async function query(deps: AgentDeps, state: RunState, specs: ToolSpec[]): Promise<ChatResponse | ModelError> {
  const messages = fitContext(state.messages, { ...deps.context, estimate: (m) => estimateTokens(m, specs) });
  try {
    return await deps.model.complete({ messages, tools: specs, turn: state.steps, ...(deps.toolContext.signal ? { signal: deps.toolContext.signal } : {}) });
  } catch (err) {
    if (err instanceof ModelError) return err;
    throw err;
  }
}

/** Applies the step's effects: an accepted finish ends the run; being stuck warns once, then ends it. */
export function afterActions(deps: AgentDeps, state: RunState, acted: Acted): Ending | null {
  if (acted.finish) return finishEnding(state, acted.finish);
  if (acted.stuck.kind === 'stuck') return { status: 'stuck', reason: acted.stuck.reason };
  if (acted.stuck.kind === 'warn') {
    const text = stuckWarning(acted.stuck.reason);
    deps.journal.append({ type: 'warning', step: state.steps, text });
    state.messages.push({ role: 'user', content: text });
    deps.onEvent?.({ type: 'warning', step: state.steps, text });
  }
  return null;
}

/** Not journaled as a finish: a retried job resumes and asks the model again. */
function modelErrorOutcome(deps: AgentDeps, state: RunState, err: ModelError): AgentOutcome {
  deps.journal.append({ type: 'model_error', step: state.steps + 1, kind: err.kind, message: err.message });
  const reason = `model call failed (${err.kind}): ${err.message}`;
  const outcome = toOutcome(state, { status: 'model_error', reason, error: { kind: err.kind, message: err.message } });
  deps.onEvent?.({ type: 'done', outcome });
  return outcome;
}

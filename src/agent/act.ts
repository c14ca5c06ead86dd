import type { ToolCall } from '../model/types.js';
import { truncate } from '../util/truncate.js';
import type { RepairKind } from './journal-schema.js';
import { endRun, finishEnding } from './outcome.js';
import { NO_TOOL_CALL } from './prompt.js';
import { record, type AgentState } from './state.js';
import { stuckWarning } from './stuck.js';
import type { ToolResult } from './tools/types.js';
import type { AgentDeps, AgentOutcome, ExecuteToolCall } from './types.js';

/**
 * Runs the step's pending calls in order. Each is journaled before it runs and after, so a crash
 * in between is visible on resume. An accepted finish clears the rest.
 */
export async function executeCalls(deps: AgentDeps, execute: ExecuteToolCall, state: AgentState): Promise<void> {
  for (let next = state.pending[0]; next; next = state.pending[0]) {
    const { call } = next;
    await record(deps.journal, state, { type: 'tool_start', step: state.steps, callId: call.id, name: call.name, args: call.arguments });
    const result = await execute(deps.tools, call, { ...deps.toolContext, verified: state.verified });
    await answer(deps, state, call, result);
  }
}

/** Journals a call's result (and the verification it carries) and applies it. */
export async function answer(deps: AgentDeps, state: AgentState, call: ToolCall, result: ToolResult, repair?: RepairKind): Promise<void> {
  await record(deps.journal, state, { type: 'tool_end', callId: call.id, name: call.name, result, ...(repair ? { repair } : {}) });
  deps.onEvent?.({ type: 'tool', step: state.steps, name: call.name, args: shortArgs(call.arguments), ok: result.ok });
  if (result.verified) await record(deps.journal, state, { type: 'verified', tree: result.verified });
}

/**
 * What follows a step's results, the same live and on resume: an accepted finish or being stuck
 * ends the run; a first stuck verdict warns the model; a reply without tool calls is nudged, and
 * the third in a row ends the run as stuck.
 */
export async function settle(deps: AgentDeps, state: AgentState): Promise<AgentOutcome | null> {
  if (state.finish) return endRun(deps, state, finishEnding(state, state.finish));
  if (state.verdict.kind === 'stuck') return endRun(deps, state, { status: 'stuck', reason: state.verdict.reason });
  if (state.verdict.kind === 'warn') {
    const text = stuckWarning(state.verdict.reason);
    await record(deps.journal, state, { type: 'warning', step: state.steps, text });
    deps.onEvent?.({ type: 'warning', step: state.steps, text });
    return null;
  }
  const silent = repliesWithoutToolCalls(state);
  if (silent >= MAX_REPLIES_WITHOUT_TOOL_CALLS) {
    return endRun(deps, state, { status: 'stuck', reason: `the model answered ${silent} times in a row without calling a tool, though each time it was told to act through tools` });
  }
  if (silent > 0) await record(deps.journal, state, { type: 'observation', step: state.steps, text: NO_TOOL_CALL });
  return null;
}

/** Replies in a row without a tool call that end the run: a model that only talks never stops on its own (issue 22: 94 such requests). */
const MAX_REPLIES_WITHOUT_TOOL_CALLS = 3;

/** How many of the last replies had no tool call, each answered only by the nudge (read from the messages: live and resumed alike). */
function repliesWithoutToolCalls(state: AgentState): number {
  let count = 0;
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const m = state.messages[i]!;
    if (m.role === 'assistant' && !m.toolCalls?.length) count += 1;
    else if (!(m.role === 'user' && m.content === NO_TOOL_CALL)) break;
  }
  return count;
}

function shortArgs(args: string): string {
  return truncate(args.replace(/\s+/g, ' '), 80);
}

import type { ToolCall } from '../model/types.js';
import { noCrashPoints } from './crash-points.js';
import type { RepairKind } from './resume-repair.js';
import { observeAction, type StuckVerdict } from './stuck.js';
import type { ToolResult } from './tools/types.js';
import type { AgentDeps, ExecuteToolCall, RunState } from './types.js';

export interface Acted {
  finish: { summary: string; gaveUp: boolean } | null;
  /** The most serious stuck verdict of the step. */
  stuck: StuckVerdict;
}

/**
 * Runs one assistant message's tool calls in order. Each is journaled before it runs and after,
 * so a crash in between is visible on resume. An accepted finish ends the step at once.
 */
export async function executeCalls(deps: AgentDeps, execute: ExecuteToolCall, state: RunState, calls: readonly ToolCall[]): Promise<Acted> {
  const crash = deps.crashPoints ?? noCrashPoints;
  let stuck: StuckVerdict = { kind: 'ok' };
  for (const call of calls) {
    deps.journal.append({ type: 'tool_start', step: state.steps, callId: call.id, name: call.name, args: call.arguments });
    crash.reach('before_tool');
    const result = await execute(deps.tools, call, { ...deps.toolContext, verified: state.verified });
    crash.reach('after_tool');
    const verdict = recordResult(deps, state, call, result);
    if (verdict.kind !== 'ok' && stuck.kind !== 'stuck') stuck = verdict;
    if (result.finish) return { finish: result.finish, stuck };
  }
  return { finish: null, stuck };
}

/** Journals a result and applies it to the state: history, verification, stuck detection. */
export function recordResult(deps: AgentDeps, state: RunState, call: ToolCall, result: ToolResult, repair?: RepairKind): StuckVerdict {
  deps.journal.append({ type: 'tool_end', callId: call.id, name: call.name, result, ...(repair ? { repair } : {}) });
  deps.onEvent?.({ type: 'tool', step: state.steps, name: call.name, args: shortArgs(call.arguments), ok: result.ok });
  if (result.verified) deps.journal.append({ type: 'verified', tree: result.verified });
  return applyResult(state, call, result);
}

/** The state change of one result; shared by the live loop and the journal replay, so both agree. */
export function applyResult(state: RunState, call: ToolCall, result: ToolResult): StuckVerdict {
  state.messages.push({ role: 'tool', toolCallId: call.id, content: result.output });
  if (result.verified) state.verified = result.verified;
  const observed = observeAction(state.stuck, call, result);
  state.stuck = observed.state;
  return observed.verdict;
}

function shortArgs(args: string): string {
  const flat = args.replace(/\s+/g, ' ');
  return flat.length <= 80 ? flat : `${flat.slice(0, 77)}...`;
}

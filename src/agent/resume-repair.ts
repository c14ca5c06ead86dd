import { answer } from './act.js';
import type { AgentState } from './state.js';
import type { AgentDeps, ExecuteToolCall } from './types.js';

export const NOT_STARTED = 'not started: the process restarted before this call ran; call it again if still needed';
export const OUTCOME_UNKNOWN = 'outcome unknown: the process stopped while this ran; check the current state before retrying';

/**
 * Answers the calls a crash left without a result, in order, so every tool call has its result
 * again. Only read-only tools are run again: anything else may have had its effect already.
 * Each answer is journaled, so a second crash resumes from here.
 */
export async function repairPending(deps: AgentDeps, execute: ExecuteToolCall, state: AgentState): Promise<void> {
  for (let next = state.pending[0]; next; next = state.pending[0]) {
    const { call, started } = next;
    const tool = deps.tools.find((t) => t.name === call.name);
    if (!started) await answer(deps, state, call, { ok: false, output: NOT_STARTED }, 'not_started');
    else if (!tool?.readOnly) await answer(deps, state, call, { ok: false, output: OUTCOME_UNKNOWN }, 'outcome_unknown');
    else await answer(deps, state, call, await execute(deps.tools, call, { ...deps.toolContext, verified: state.verified }), 're_executed');
  }
}

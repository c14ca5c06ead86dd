import { recordResult, type Acted } from './act.js';
import type { PendingCall } from './resume-replay.js';
import type { AgentDeps, ExecuteToolCall, RunState } from './types.js';

export type RepairKind = 'not_started' | 'outcome_unknown' | 're_executed';

export const NOT_STARTED = 'not started: the process restarted before this call ran; call it again if still needed';
export const OUTCOME_UNKNOWN = 'outcome unknown: the process stopped while this ran; check the current state before retrying';

/**
 * Answers the calls a crash left without a result, in order, so every tool call has its result
 * again. Only read-only tools are run again: anything else may have had its effect already.
 * Each answer is journaled, so a second crash resumes from here.
 */
export async function repairPending(deps: AgentDeps, execute: ExecuteToolCall, state: RunState, pending: readonly PendingCall[]): Promise<Acted> {
  const acted: Acted = { finish: null, stuck: { kind: 'ok' } };
  for (const { call, started } of pending) {
    const tool = deps.tools.find((t) => t.name === call.name);
    const verdict = !started
      ? recordResult(deps, state, call, { ok: false, output: NOT_STARTED }, 'not_started')
      : !tool?.readOnly
        ? recordResult(deps, state, call, { ok: false, output: OUTCOME_UNKNOWN }, 'outcome_unknown')
        : recordResult(deps, state, call, await execute(deps.tools, call, { ...deps.toolContext, verified: state.verified }), 're_executed');
    if (verdict.kind !== 'ok' && acted.stuck.kind !== 'stuck') acted.stuck = verdict;
  }
  return acted;
}

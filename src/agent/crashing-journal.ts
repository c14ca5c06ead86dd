import type { CrashPoints } from '../util/crash-points.js';
import type { Journal } from './journal.js';

/** The agent's crash points: between a journaled record and the effect that follows it. */
export type AgentCrashPoint = 'after_model' | 'before_tool' | 'after_tool';

/**
 * A journal that reaches the agent's crash points as the loop writes it: `after_model` once a
 * reply is journaled, `before_tool` once a call's start is, `after_tool` when a call has run and
 * its result is about to be (not for results a resume writes for repaired calls).
 */
export function crashingJournal<J extends Journal>(journal: J, crash: CrashPoints<AgentCrashPoint>): J {
  return Object.assign(Object.create(journal) as J, {
    async append(entry: Parameters<Journal['append']>[0]) {
      if (entry.type === 'tool_end' && !entry.repair) crash.reach('after_tool');
      await journal.append(entry);
      if (entry.type === 'assistant') crash.reach('after_model');
      if (entry.type === 'tool_start') crash.reach('before_tool');
    },
  });
}

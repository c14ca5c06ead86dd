import { crashingJournal } from '../agent/crashing-journal.js';
import { crashingPublisher, crashingRunState } from '../fix/crashing-fix.js';
import { noFixWrappers, type FixWrappers } from '../fix/fix-wrappers.js';
import { crashingHost } from '../github/crashing-host.js';
import type { GitHost } from '../github/types.js';
import type { JobQueue } from '../queue/types.js';
import { crashingQueue } from '../job/crashing-queue.js';
import { createCrashPoints, parseCrashAt } from '../util/crash-points.js';
import { crashingPush } from '../workspace/crashing-push.js';
import type { PushBranch } from '../workspace/push-branch.js';

/** Decorators for every effect of a process: a fix's, and a job's writes to GitHub and pushes. */
export interface EffectWrappers extends FixWrappers {
  host(host: GitHost): GitHost;
  push(push: PushBranch): PushBranch;
  /** The workers' queue: its job endings record the spend. */
  queue(queue: JobQueue): JobQueue;
}

export const noEffectWrappers: EffectWrappers = { ...noFixWrappers, host: (h) => h, push: (p) => p, queue: (q) => q };

/**
 * The wrappers of a process: with GREENFIX_CRASH_AT set, each effect is wrapped in one that
 * reaches its crash points, all counted by one counter (so `after_comment:3` is this process's
 * third comment write); without it, none.
 */
export function crashWrappers(env: Readonly<Record<string, string | undefined>>, kill?: () => void): EffectWrappers {
  if (!parseCrashAt(env.GREENFIX_CRASH_AT)) return noEffectWrappers;
  const crash = createCrashPoints(env, kill);
  return {
    journal: (journal) => crashingJournal(journal, crash),
    publisher: (publisher) => crashingPublisher(publisher, crash),
    state: (store) => crashingRunState(store, crash),
    host: (host) => crashingHost(host, crash),
    push: (push) => crashingPush(push, crash),
    queue: (queue) => crashingQueue(queue, crash),
  };
}

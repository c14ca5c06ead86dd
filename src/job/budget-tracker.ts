import type { JobQueue, SpendCap } from '../queue/types.js';
import { capWindow } from './cap-window.js';

export interface BudgetRemaining {
  scope: SpendCap['scope'];
  window: SpendCap['window'];
  /** The repository's `owner/name`, or the installation id. */
  key: string;
  remainingUsd: number;
}

export interface BudgetTracker {
  /** The caps a job ran under: from now on their remaining budget is reported. */
  note(caps: readonly SpendCap[], repo: string): void;
  /** Each noted cap's limit minus the spend recorded in its current window, read from the queue. */
  remaining(): Promise<BudgetRemaining[]>;
}

/**
 * What `greenfix_budget_remaining_usd` shows, computed at scrape time from the queue's store, so a
 * job's end and a window's reset show at the next scrape. Only caps some job of this process ran
 * under are known (the operator's apply to every repository; listing them all would be unbounded).
 */
export function createBudgetTracker(queue: Pick<JobQueue, 'spent' | 'spentByInstallation'>, now: () => number): BudgetTracker {
  const known = new Map<string, { cap: SpendCap; label: string }>();
  return {
    note(caps, repo) {
      for (const cap of caps) known.set(`${cap.scope}|${cap.window}|${cap.key}`, { cap, label: cap.scope === 'repo' ? repo : cap.key });
    },
    async remaining() {
      const at = now();
      return Promise.all(
        [...known.values()].map(async ({ cap, label }) => {
          const { since } = capWindow(cap.window, at);
          // Rounded to a billionth of a dollar: 1 - 0.81 reads 0.19, not 0.18999999999999995.
          const spent = cap.scope === 'repo' ? await queue.spent(cap.key, since) : await queue.spentByInstallation(cap.key, since);
          return { scope: cap.scope, window: cap.window, key: label, remainingUsd: Math.round((cap.limitUsd - spent) * 1e9) / 1e9 };
        }),
      );
    },
  };
}

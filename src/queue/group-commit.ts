export interface GroupCommitOptions {
  /**
   * Runs after each batch's commit, before its callers hear of it: starts the batch's disk sync
   * (wal-sync.ts), which nobody waits for. Absent: the commit's own fsync, if any, is the only one.
   */
  afterCommit?: () => void;
}

/**
 * Group commit: calls made in the same turn of the event loop are applied together by `applyAll`
 * (one transaction, so one fsync for the lot), and each caller gets its own result or error.
 * Under a burst of webhooks this turns N synchronous disk syncs on the receiver's only thread into
 * a few; alone, a call waits one `setImmediate`. With `afterCommit`, the batch commits unsynced
 * and its sync starts on the thread pool as its callers go on.
 */
export function groupCommit<A, R>(
  applyAll: (items: readonly A[]) => Array<{ ok: true; value: R } | { ok: false; error: unknown }>,
  options: GroupCommitOptions = {},
): (item: A) => Promise<R> {
  let pending: Array<{ item: A; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  const settle = (batch: typeof pending, results: ReturnType<typeof applyAll>) =>
    batch.forEach((p, i) => {
      const r = results[i];
      if (r?.ok) p.resolve(r.value);
      else p.reject(r ? r.error : new Error('group commit lost a result'));
    });
  const flush = () => {
    const batch = pending;
    pending = [];
    let results: ReturnType<typeof applyAll>;
    try {
      results = applyAll(batch.map((p) => p.item));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    options.afterCommit?.();
    settle(batch, results);
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ item, resolve, reject });
    });
}

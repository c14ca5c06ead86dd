/**
 * Work the webhook handler starts after it answered the delivery (authorising the sender, the 👀
 * reaction, closing waiting comments): never awaited by the answer, never rejecting.
 * `idle()` waits until none is left, waiting or running (a stopping server; tests that look at
 * the effects).
 */
export interface AfterAnswer {
  run(what: string, task: () => Promise<unknown>): void;
  idle(): Promise<void>;
}

export interface AfterAnswerOptions {
  warn: (obj: object, msg: string) => void;
  /** Tasks running at once; the rest wait their turn in order (default AFTER_ANSWER_CONCURRENCY). */
  concurrency?: number;
}

/**
 * Tasks running at once. Each is mostly waiting on GitHub, but its requests, responses and
 * queue writes run on the receiver's one thread: unbounded, a burst of deliveries started as
 * many tasks, whose work then competed with the answers of the deliveries still coming
 * (bench:ack, docs/decisions.md). Bounded, a burst is answered first and its tasks follow.
 */
export const AFTER_ANSWER_CONCURRENCY = 8;

/** Created per app instance: the tasks waiting and in flight live in this closure. */
export function createAfterAnswer(options: AfterAnswerOptions): AfterAnswer {
  const limit = options.concurrency ?? AFTER_ANSWER_CONCURRENCY;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`after-answer concurrency must be a positive integer, got ${limit}`);
  const waiting: Array<() => void> = [];
  const pending = new Set<Promise<void>>();
  let running = 0;
  const pump = () => {
    while (running < limit && waiting.length > 0) {
      running += 1;
      waiting.shift()!();
    }
  };
  return {
    run(what, task) {
      let start!: () => void;
      const turn = new Promise<void>((resolve) => (start = resolve));
      const done: Promise<void> = turn
        .then(task)
        .then(
          () => undefined,
          (error: unknown) => options.warn({ err: error instanceof Error ? error.message : String(error) }, `${what} failed`),
        )
        .finally(() => {
          pending.delete(done);
          running -= 1;
          // The next one starts in the loop's check phase, after the I/O callbacks already due: deliveries among them are answered first.
          if (waiting.length > 0) setImmediate(pump);
        });
      pending.add(done);
      waiting.push(start);
      pump();
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

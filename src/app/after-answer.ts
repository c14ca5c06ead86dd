/**
 * Work the webhook handler starts after it answered the delivery (authorising the sender, the 👀
 * reaction, closing waiting comments): run at once, never awaited by the answer, never rejecting.
 * `idle()` waits until none is left (a stopping server; tests that look at the effects).
 */
export interface AfterAnswer {
  run(what: string, task: () => Promise<unknown>): void;
  idle(): Promise<void>;
}

/** Created per app instance: the tasks in flight live in this closure. */
export function createAfterAnswer(warn: (obj: object, msg: string) => void): AfterAnswer {
  const inFlight = new Set<Promise<void>>();
  return {
    run(what, task) {
      const done: Promise<void> = Promise.resolve()
        .then(task)
        .then(
          () => undefined,
          (error: unknown) => warn({ err: error instanceof Error ? error.message : String(error) }, `${what} failed`),
        )
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

/**
 * Runs tasks one at a time, in call order. The private index has one lock file; two concurrent
 * `git add` runs on it would fail with index.lock errors instead of queueing.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

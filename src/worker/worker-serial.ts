/**
 * Runs claim passes one at a time. Requests made while a pass waits to start share it; a request
 * made while a pass runs gets a new pass after it, so a caller always sees a pass that started
 * after its call (drained() relies on this: a pass that began before an enqueue proves nothing).
 */
export function serialPasses(pass: () => Promise<void>): { request(): Promise<void>; idle(): Promise<void> } {
  let tail: Promise<void> = Promise.resolve();
  let pending: Promise<void> | null = null;
  return {
    request() {
      if (pending) return pending;
      const next = tail.then(() => {
        pending = null;
        return pass();
      });
      pending = next;
      tail = next.catch(() => undefined);
      return next;
    },
    idle: () => tail,
  };
}

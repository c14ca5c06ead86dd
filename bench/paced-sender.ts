import { performance } from 'node:perf_hooks';
import { deliver, type Answer, type Delivery } from './deliveries.js';

export interface PacedAnswer extends Answer {
  /** How late the delivery left against its slot in the schedule (the sender's own delay). */
  lagMs: number;
}

export interface PacedRun {
  answers: PacedAnswer[];
  /** From the first send to the last: the offered rate is (count - 1) / span. */
  spanMs: number;
  /** From the first send to the last answer: the rate the server kept up is count / drain. */
  drainMs: number;
}

/**
 * Open loop: delivery i leaves at start + i / rate, each on its own connection, whether or not
 * earlier ones were answered, so a slow server cannot lower the offered load (a closed loop,
 * "send after the previous answer", would hide the queueing it causes).
 */
export async function sendPaced(url: string, deliveries: Delivery[], perSecond: number): Promise<PacedRun> {
  const interval = 1_000 / perSecond;
  const pending: Array<Promise<PacedAnswer>> = [];
  const start = performance.now();
  let last = start;
  for (const [i, d] of deliveries.entries()) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = performance.now();
    const lagMs = Math.max(0, last - due);
    pending.push(deliver(url, d).then((answer) => ({ ...answer, lagMs })));
  }
  const answers = await Promise.all(pending);
  return { answers, spanMs: last - start, drainMs: performance.now() - start };
}

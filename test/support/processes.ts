import { readFileSync } from 'node:fs';

/**
 * Alive = exists and is not a zombie waiting for a reaper. A killed process is not gone the
 * instant its killer returns: it closes its descriptors early in its exit and is a zombie only
 * at the end, so on a loaded machine it can still look alive after its pipes were seen closed.
 * Tests wait `until` it is gone.
 */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Polls `done` every 10 ms until it holds; throws naming `what` after `ms`. */
export async function until(done: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

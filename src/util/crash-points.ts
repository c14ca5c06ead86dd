/**
 * Deliberate crashes for tests of resume: GREENFIX_CRASH_AT=<point> or <point>:<n> kills the
 * process with SIGKILL the n-th time (default 1st) it reaches that point. SIGKILL, not an
 * exception: nothing gets to clean up or flush, exactly like an OOM kill or a power cut.
 * The points live in wrappers around the effects they sit between (the journal, the host, the
 * push, the publisher), applied where the process is assembled (cli/crash-wrappers.ts); each
 * wrapper names its own points.
 */
export interface CrashPoints<Name extends string = string> {
  reach(name: Name): void;
}

export interface CrashSpec {
  name: string;
  nth: number;
}

/** Parses the variable's value; null when unset or malformed (a typo must not crash real runs). */
export function parseCrashAt(value: string | undefined): CrashSpec | null {
  const match = /^([a-z_]+)(?::([1-9]\d*))?$/.exec(value?.trim() ?? '');
  if (!match?.[1]) return null;
  return { name: match[1], nth: match[2] ? Number(match[2]) : 1 };
}

/** Counters live in the returned object: one per process (or test), nothing shared. */
export function createCrashPoints(
  env: Readonly<Record<string, string | undefined>>,
  kill: () => void = () => process.kill(process.pid, 'SIGKILL'),
): CrashPoints {
  const spec = parseCrashAt(env.GREENFIX_CRASH_AT);
  const counts = new Map<string, number>();
  return {
    reach(name) {
      if (spec?.name !== name) return;
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      if (count === spec.nth) kill();
    },
  };
}


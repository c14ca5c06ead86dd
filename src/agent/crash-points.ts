/**
 * Deliberate crashes for tests of resume: GREENFIX_CRASH_AT=<point> or <point>:<n> kills the
 * process with SIGKILL the n-th time (default 1st) it reaches that point. SIGKILL, not an
 * exception: nothing gets to clean up or flush, exactly like an OOM kill or a power cut.
 */
export type CrashPointName =
  | 'after_model'
  | 'before_tool'
  | 'after_tool'
  | 'before_publish'
  | 'before_push'
  | 'after_push'
  | 'before_pull_request'
  | 'after_pull_request'
  | 'before_check_run'
  | 'after_check_run'
  | 'after_publish'
  | 'before_comment'
  | 'after_comment';

export interface CrashPoints {
  reach(name: CrashPointName): void;
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

/** Counters live in the returned object: one per run, nothing shared across runs or tests. */
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

export const noCrashPoints: CrashPoints = { reach: () => undefined };

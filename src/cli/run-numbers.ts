import { readdirSync } from 'node:fs';

/** `name` for the first run of a task, `name-<n>` for the n-th (the same task run again). */
export function withRunNumber(name: string, n: number): string {
  return n <= 1 ? name : `${name}-${n}`;
}

/**
 * The highest run number of `runKey` among the directories in `runs`: 0 when there is none, 1 for
 * `runKey` itself, n for `runKey-n`. A task slug ends in its hash (slug.ts), so `-<n>` never belongs to another task.
 */
export function latestRunNumber(runs: string, runKey: string): number {
  let names: string[];
  try {
    names = readdirSync(runs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let latest = 0;
  for (const name of names) {
    if (name === runKey) latest = Math.max(latest, 1);
    else if (name.startsWith(`${runKey}-`)) {
      const n = name.slice(runKey.length + 1);
      if (/^[1-9][0-9]*$/.test(n)) latest = Math.max(latest, Number(n));
    }
  }
  return latest;
}

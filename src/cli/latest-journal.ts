import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The journal of the latest local run in `workdir` (`runs/*\/journal.jsonl` written last), or null. */
export function latestJournal(workdir: string): string | null {
  const runs = join(workdir, 'runs');
  let names: string[];
  try {
    names = readdirSync(runs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let latest: { path: string; mtimeMs: number } | null = null;
  for (const name of names.sort()) {
    const path = join(runs, name, 'journal.jsonl');
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isFile() && (latest === null || stat.mtimeMs >= latest.mtimeMs)) latest = { path, mtimeMs: stat.mtimeMs };
  }
  return latest?.path ?? null;
}

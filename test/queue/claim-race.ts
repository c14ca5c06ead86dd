import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runProcess } from '../../src/util/run-process.js';

const WORKER = resolve('test/queue/fixtures/claim-worker.mjs');

export interface RaceTarget {
  /** The compiled queue module (`npm test` builds first; locally run `npm run build`). */
  queueJs: string;
  kind: 'sqlite' | 'bullmq';
  /** The database file, or `<REDIS_URL> <prefix>`. */
  target: string;
  /** A directory for the barrier files. */
  dir: string;
}

/** Two real OS processes, a and b, claim from one queue at the same moment; returns the ids each took. */
export async function raceProcesses(t: RaceTarget, mode: 'once' | 'drain' | 'reserve'): Promise<string[][]> {
  const run = (name: string) =>
    runProcess({
      argv: [process.execPath, WORKER, pathToFileURL(t.queueJs).href, t.kind, t.target, resolve(t.dir, 'barrier'), name, mode],
      cwd: t.dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 30_000,
    });
  const results = await Promise.all([run('a'), run('b')]);
  for (const r of results) expect({ exit: r.exitCode, stderr: r.stderr }).toEqual({ exit: 0, stderr: '' });
  return results.map((r) => JSON.parse(r.stdout) as string[]);
}

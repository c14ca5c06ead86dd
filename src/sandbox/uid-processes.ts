import { readdirSync, readFileSync } from 'node:fs';

/**
 * Whether any live process runs with `uid` as its real uid (a leftover of a crashed job). Zombies
 * do not count: they hold nothing but their pid, and a bwrap init waits for pid 1 to reap it.
 */
export function uidHasProcesses(uid: number, proc = '/proc'): boolean {
  for (const name of readdirSync(proc)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`${proc}/${name}/status`, 'utf8');
      const match = /^Uid:\s+(\d+)/m.exec(status);
      if (match && Number(match[1]) === uid && !/^State:\s+Z/m.test(status)) return true;
    } catch {
      /* exited while we looked */
    }
  }
  return false;
}

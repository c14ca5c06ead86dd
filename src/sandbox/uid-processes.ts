import { readdirSync, readFileSync } from 'node:fs';

/** Whether any process runs with `uid` as its real uid (a leftover of a crashed job). */
export function uidHasProcesses(uid: number, proc = '/proc'): boolean {
  for (const name of readdirSync(proc)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const match = /^Uid:\s+(\d+)/m.exec(readFileSync(`${proc}/${name}/status`, 'utf8'));
      if (match && Number(match[1]) === uid) return true;
    } catch {
      /* exited while we looked */
    }
  }
  return false;
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAllIn, killAndRemove, readKey, readNumber, type CgroupLimits, type Cgroups, type CommandCgroup } from './cgroups.js';

/** The mount points of the v1 `memory` and `pids` hierarchies, from /proc/self/mountinfo. */
export function v1Mounts(mountinfo: string = readFileSync('/proc/self/mountinfo', 'utf8')): { memory?: string; pids?: string } {
  const found: { memory?: string; pids?: string } = {};
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const [fstype, , superOptions] = right.split(' ');
    if (fstype !== 'cgroup' || !superOptions) continue;
    const point = left.split(' ')[4];
    const options = superOptions.split(',');
    if (point && options.includes('memory')) found.memory = point;
    if (point && options.includes('pids')) found.pids = point;
  }
  return found;
}

/**
 * cgroup v1: one directory in `memory` and one in `pids`, both below greenfix's own cgroup of
 * each (`<own>/greenfix/<name>`), so an outer limit (a container's) still applies. Swap is
 * capped with memory where the kernel accounts it (memsw).
 */
export function cgroupsV1(bases: { memory: string; pids: string }): Cgroups {
  for (const base of [bases.memory, bases.pids]) mkdirSync(base, { recursive: true });
  return {
    version: 'v1',
    where: `${bases.memory}, ${bases.pids}`,
    create(name: string, limits: CgroupLimits): CommandCgroup {
      const memory = join(bases.memory, name);
      const pids = join(bases.pids, name);
      mkdirSync(memory);
      try {
        mkdirSync(pids);
        writeFileSync(join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
        const memsw = join(memory, 'memory.memsw.limit_in_bytes');
        if (existsSync(memsw)) writeFileSync(memsw, String(limits.memoryBytes));
        writeFileSync(join(pids, 'pids.max'), String(limits.pids));
      } catch (error) {
        void killAndRemove([memory, pids], 1_000);
        throw error;
      }
      return {
        joinFiles: [join(memory, 'tasks'), join(pids, 'tasks')],
        // Kernels before 4.13 have no oom_kill counter: then hitting the limit at all counts.
        oomKills: () => readKey(join(memory, 'memory.oom_control'), 'oom_kill') ?? readNumber(join(memory, 'memory.failcnt')),
        empty: () => killAllIn([memory, pids]),
        remove: async () => void (await killAndRemove([memory, pids])),
      };
    },
  };
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAllIn, killAndRemove, readKey, readProcs, type CgroupLimits, type Cgroups, type CommandCgroup } from './cgroups.js';

const NEEDED = ['memory', 'pids'];
/** Where greenfix's own processes move so its cgroup may have children with controllers. */
export const HOST_LEAF = 'greenfix-host';

/**
 * cgroup v2, in the subtree delegated to greenfix (its own cgroup: a container's, or a systemd
 * unit with Delegate=yes). v2 allows no processes in a cgroup whose children have controllers, so
 * when greenfix's own cgroup holds processes they move into a leaf `<own>/greenfix-host` first
 * (what container runtimes do for nested containers); command cgroups are `<own>/<name>`.
 * Throws when the controllers are not available there: the caller falls back to rlimits.
 */
export function cgroupsV2(own: string): Cgroups {
  const available = readFileSync(join(own, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
  const missing = NEEDED.filter((c) => !available.includes(c));
  if (missing.length > 0) throw new Error(`controllers ${missing.join(', ')} are not delegated to ${own}`);
  enableControllers(own);
  return {
    version: 'v2',
    where: own,
    create(name: string, limits: CgroupLimits): CommandCgroup {
      const dir = join(own, name);
      mkdirSync(dir);
      try {
        writeFileSync(join(dir, 'memory.max'), String(limits.memoryBytes));
        if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
        writeFileSync(join(dir, 'pids.max'), String(limits.pids));
      } catch (error) {
        void killAndRemove([dir], 1_000);
        throw error;
      }
      return {
        joinFiles: [join(dir, 'cgroup.procs')],
        oomKills: () => readKey(join(dir, 'memory.events'), 'oom_kill') ?? 0,
        empty: () => {
          killSubtree(dir);
          return killAllIn([dir]);
        },
        remove: async () => {
          killSubtree(dir);
          await killAndRemove([dir]);
        },
      };
    },
  };
}

/** cgroup.kill (Linux 5.14+) kills the whole subtree at once; the kill loop covers older kernels. */
function killSubtree(dir: string): void {
  try {
    writeFileSync(join(dir, 'cgroup.kill'), '1');
  } catch {
    /* older kernel or already gone */
  }
}

function enableControllers(own: string): void {
  const control = join(own, 'cgroup.subtree_control');
  const enabled = readFileSync(control, 'utf8').trim().split(/\s+/);
  if (NEEDED.every((c) => enabled.includes(c))) return;
  const enable = () => writeFileSync(control, NEEDED.map((c) => `+${c}`).join(' '));
  try {
    enable();
    return;
  } catch (error) {
    // EBUSY: the cgroup holds processes (the root of a hierarchy is exempt; ours is not).
    if ((error as NodeJS.ErrnoException).code !== 'EBUSY') throw error;
  }
  const leaf = join(own, HOST_LEAF);
  mkdirSync(leaf, { recursive: true });
  for (const pid of readProcs(join(own, 'cgroup.procs'))) {
    try {
      writeFileSync(join(leaf, 'cgroup.procs'), String(pid));
    } catch {
      /* exited meanwhile */
    }
  }
  enable();
}

import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cgroupsV1, v1Mounts } from './cgroup-v1.js';
import { cgroupsV2, HOST_LEAF } from './cgroup-v2.js';
import { commandCgroupName, ownCgroupPaths, sweepStaleCgroups, type Cgroups } from './cgroups.js';
import { isProcessAlive } from './process-alive.js';

export type CgroupDetection = { cgroups: Cgroups; why?: undefined } | { cgroups: null; why: string };

export interface DetectCgroupsOptions {
  /** Default /sys/fs/cgroup. */
  root?: string;
  /** Default: /proc/self/cgroup and /proc/self/mountinfo. */
  procSelfCgroup?: string;
  mountinfo?: string;
}

/**
 * The cgroups this host lets greenfix create, preferring v2 (a unified hierarchy at the root) and
 * falling back to the v1 `memory` + `pids` controllers; `why` says what is missing otherwise
 * (not root, a read-only cgroupfs, controllers not delegated). Leftovers of a crashed run are swept.
 */
export async function detectCgroups(options: DetectCgroupsOptions = {}): Promise<CgroupDetection> {
  const root = options.root ?? '/sys/fs/cgroup';
  const own = ownCgroupPaths(options.procSelfCgroup);
  try {
    if (existsSync(join(root, 'cgroup.controllers'))) {
      // Moved into the host leaf by an earlier start in this process (or its parent): the base is above it.
      const path = own.get('') ?? '/';
      const cgroups = cgroupsV2(join(root, basename(path) === HOST_LEAF ? dirname(path) : path));
      await sweepStaleCgroups([cgroups.where], isProcessAlive);
      return { cgroups: await tried(cgroups) };
    }
    const mounts = v1Mounts(options.mountinfo);
    if (!mounts.memory || !mounts.pids) return { cgroups: null, why: 'no cgroup v2 and no v1 memory and pids controllers mounted' };
    const bases = {
      memory: join(mounts.memory, own.get('memory') ?? '/', 'greenfix'),
      pids: join(mounts.pids, own.get('pids') ?? '/', 'greenfix'),
    };
    const cgroups = cgroupsV1(bases);
    await sweepStaleCgroups([bases.memory, bases.pids], isProcessAlive);
    return { cgroups: await tried(cgroups) };
  } catch (error) {
    return { cgroups: null, why: `cannot create cgroups here (${errnoText(error)})` };
  }
}

/** Creates and removes one cgroup: a base directory may exist (made by root) yet be closed to us. */
async function tried(cgroups: Cgroups): Promise<Cgroups> {
  const trial = cgroups.create(commandCgroupName(process.pid, 0), { memoryBytes: 64 * 1024 * 1024, pids: 16 });
  await trial.remove();
  return cgroups;
}

/** `EACCES: permission denied, mkdir '…'` — an fs error as one short phrase for a log line. */
function errnoText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { readFileSync, readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/** The caps of one command's cgroup. */
export interface CgroupLimits {
  memoryBytes: number;
  pids: number;
}

/** One command's cgroup (v1: a directory per controller; v2: one directory). */
export interface CommandCgroup {
  /**
   * The files the launcher writes `0` (itself) into before it execs the command: v1 `tasks` — the
   * launcher is one thread, and moving the writing thread itself skips the kernel's global
   * threadgroup lock and its RCU grace period (Linux 5.17+), 10–60 ms a command here —, v2
   * `cgroup.procs`.
   */
  readonly joinFiles: readonly string[];
  /**
   * How many processes of it the kernel's OOM killer killed so far (kernels without the counter:
   * how often it hit its limit). Never guessed from a signal; a command's own is the difference.
   */
  oomKills(): number;
  /** Kills whatever is still in it and waits until it is empty (false: it did not empty in time). */
  empty(): Promise<boolean>;
  /** Kills whatever is still in it, then removes it. */
  remove(): Promise<void>;
}

/** Where greenfix creates per-command cgroups, and how. */
export interface Cgroups {
  readonly version: 'v1' | 'v2';
  /** The parent directories (for the startup report). */
  readonly where: string;
  create(name: string, limits: CgroupLimits): CommandCgroup;
}

/** The process's own cgroup paths from /proc/self/cgroup: `controller → path` ('' is the v2 line). */
export function ownCgroupPaths(text: string = readFileSync('/proc/self/cgroup', 'utf8')): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    for (const controller of match[1]!.split(',')) paths.set(controller, match[2]!);
  }
  return paths;
}

/** Pids listed in a `cgroup.procs` file; empty when it is gone. */
export function readProcs(file: string): number[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A number from a flat-keyed file (`memory.events`, `memory.oom_control`); null when absent. */
export function readKey(file: string, key: string): number | null {
  try {
    const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** A file holding one number (`memory.failcnt`); 0 when unreadable. */
export function readNumber(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGKILLs everything listed in the directories' cgroup.procs until they are empty, then removes
 * them (rmdir fails with EBUSY while a dying process is still in one). Bounded: gives up after
 * `timeoutMs` and leaves the directory for the next start's sweep.
 */
export async function killAndRemove(dirs: readonly string[], timeoutMs = 5_000): Promise<boolean> {
  return killAll(dirs, timeoutMs, () => dirs.every(tryRmdir));
}

/** SIGKILLs everything listed in the directories' cgroup.procs until they are empty; they stay. */
export function killAllIn(dirs: readonly string[], timeoutMs = 5_000): Promise<boolean> {
  return killAll(dirs, timeoutMs, () => true);
}

async function killAll(dirs: readonly string[], timeoutMs: number, whenEmpty: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    let left = 0;
    for (const dir of dirs) {
      for (const pid of readProcs(join(dir, 'cgroup.procs'))) {
        left += 1;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    if (left === 0 && whenEmpty()) return true;
    if (Date.now() > deadline) return false;
    await wait(delay);
  }
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Removes cgroups a crashed greenfix left under `base` (named `<pid>-…` after their creator, see
 * `commandCgroupName`), killing what is still in them. Live creators' cgroups are left alone.
 */
export async function sweepStaleCgroups(bases: readonly string[], isAlive: (pid: number) => boolean): Promise<void> {
  const names = new Set<string>();
  for (const base of bases) {
    try {
      for (const entry of readdirSync(base, { withFileTypes: true })) if (entry.isDirectory()) names.add(entry.name);
    } catch {
      /* no base yet */
    }
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || isAlive(pid)) continue;
    await killAndRemove(bases.map((base) => join(base, name)), 2_000);
  }
}

/** `<our pid>-<sequence>`: unique on the machine, and tells the sweep whose it is. */
export function commandCgroupName(pid: number, sequence: number | string): string {
  return `${pid}-${sequence}`;
}

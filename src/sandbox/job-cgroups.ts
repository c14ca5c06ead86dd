import type { CgroupLimits, Cgroups, CommandCgroup } from './cgroups.js';

/** A command's cgroup for as long as it runs. */
export interface CgroupLease {
  /** What the launcher joins (CommandCgroup.joinFiles). */
  readonly joinFiles: readonly string[];
  /** Whether the kernel's OOM killer killed a process of this command. */
  oomKilled(): boolean;
  /** Kills whatever the command left in it; the cgroup goes back to the job (or is removed when it would not empty). */
  release(): Promise<void>;
}

/** One job's cgroups: made once and reused by its commands, removed with the job. */
export interface JobCgroups {
  lease(): CgroupLease;
  removeAll(): Promise<void>;
}

export interface JobCgroupsOptions {
  cgroups: Cgroups;
  limits: CgroupLimits;
  /** A machine-unique name for each new cgroup (commandCgroupName). */
  name: () => string;
}

/**
 * Creating and removing a cgroup per command costs every command two mkdirs, writes and rmdirs
 * (and, in v1, the kernel reparenting the memory charge). A job's commands instead reuse the
 * cgroups it already made: one is handed out only when empty (everything a command left is
 * killed before it goes back), so a command never shares one with another's processes. Commands
 * that run at once get one each. The caps are per cgroup as before; OOM kills are counted per
 * command as the counter's increase while it held the cgroup.
 */
export function createJobCgroups(options: JobCgroupsOptions): JobCgroups {
  const free: CommandCgroup[] = [];
  const all = new Set<CommandCgroup>();
  return {
    lease(): CgroupLease {
      let cgroup = free.pop();
      if (!cgroup) {
        cgroup = options.cgroups.create(options.name(), options.limits);
        all.add(cgroup);
      }
      const held = cgroup;
      const before = held.oomKills();
      return {
        joinFiles: held.joinFiles,
        oomKilled: () => held.oomKills() > before,
        async release() {
          if (await held.empty()) {
            free.push(held);
            return;
          }
          all.delete(held);
          await held.remove();
        },
      };
    },
    async removeAll() {
      free.length = 0;
      const removing = [...all];
      all.clear();
      await Promise.all(removing.map((cgroup) => cgroup.remove()));
    },
  };
}

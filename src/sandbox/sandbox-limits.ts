/** What one sandboxed command, and one job's worktree, may use. */
export interface SandboxLimits {
  /** pids.max of the command's cgroup; RLIMIT_NPROC of its uid without one. */
  processes: number;
  /** The command's cgroup memory cap (no effect without a cgroup). */
  memoryMb: number;
  /** The disk watchdog's cap on a job's worktree. */
  diskMb: number;
  /** Shortest pause between two walks of a job's worktree while a command runs. */
  diskPollMs: number;
  fileSizeBytes: number;
  tmpBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  processes: 1024,
  memoryMb: 4096,
  diskMb: 10240,
  diskPollMs: 2000,
  fileSizeBytes: 1024 ** 3,
  tmpBytes: 1024 ** 3,
};

import { readFileSync } from 'node:fs';

/**
 * The start time of a process (clock ticks since boot, field 22 of /proc/<pid>/stat), or null
 * when it does not exist. Together with the pid it names one process: pids are reused.
 */
export function processStartTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[19]);
    return Number.isFinite(start) ? start : null;
  } catch {
    return null;
  }
}

/** Whether `pid` is a live process (started at `startTime`, when given). */
export function isProcessAlive(pid: number, startTime?: number): boolean {
  const start = processStartTime(pid);
  if (start === null) return false;
  return startTime === undefined || start === startTime;
}

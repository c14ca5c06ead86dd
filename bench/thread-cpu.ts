import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) this process's main thread has used so far, from
 * `/proc/self/task/<pid>/stat` (Linux; 10 ms ticks). Unlike latency, it hardly depends on how busy
 * the rest of the machine is: the load bench's measure of what each delivery costs the receiver.
 * null where /proc is not there.
 */
export function mainThreadCpuMs(): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 10 : null;
}

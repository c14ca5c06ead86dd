import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './exit-codes.js';

export interface WorkdirLock {
  /** Stable across restarts: the next process in this workdir takes over this one's jobs. */
  workerId: string;
  release(): void;
}

/**
 * One worker process per GREENFIX_WORKDIR (mirrors and job files are not shared between
 * processes). The worker id is derived from host and workdir, so a restarted process knows which
 * running jobs were its own and resumes them at once.
 */
export function lockWorkdir(workdir: string, pid = process.pid): WorkdirLock {
  mkdirSync(workdir, { recursive: true, mode: 0o711 });
  const file = join(workdir, 'worker.pid');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, `${pid}\n`, { flag: 'wx', mode: 0o600 });
      const workerId = `${hostname()}:${createHash('sha256').update(workdir).digest('hex').slice(0, 12)}`;
      return { workerId, release: () => unlinkSync(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && alive(holder)) {
        throw new UsageError(`another greenfix worker (pid ${holder}) uses ${workdir}; give each worker its own GREENFIX_WORKDIR`);
      }
      unlinkSync(file); // left by a process that is gone
    }
  }
  throw new UsageError(`could not lock ${workdir}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

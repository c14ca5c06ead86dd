import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxCapacityError } from './errors.js';
import type { FileOwner } from './ownership.js';
import { isProcessAlive, processStartTime } from './process-alive.js';
import type { UidRange } from './uid-range.js';
import { uidHasProcesses } from './uid-processes.js';

/** One job's uid, held until `release`. */
export interface UidLease {
  readonly owner: FileOwner;
  release(): void;
}

export interface UidPool {
  readonly range: UidRange;
  /** Prefers `preferred` (the uid that already owns a resumed job's worktree) when it is free. */
  acquire(preferred?: number): Promise<UidLease>;
}

export interface UidPoolOptions {
  range: UidRange;
  /** A host directory every greenfix process on the machine shares (default: /run/greenfix-uid-leases). */
  dir: string;
  /** Injectable for tests. */
  pid?: number;
  isAlive?: (pid: number, startTime?: number) => boolean;
  uidBusy?: (uid: number) => boolean;
}

interface Holder {
  pid: number;
  start: number | null;
  token: string;
}

const MUTEX = '.mutex';
/** A mutex older than this was left by a process that died inside the few lines it guards. */
const MUTEX_STALE_MS = 10_000;
const MUTEX_WAIT_MS = 30_000;

/**
 * Leases uids from a range so no two concurrent jobs share one — also across worker processes on
 * one machine: a lease is a file `<dir>/<uid>` naming its holder (pid and start time), written
 * while holding `<dir>/.mutex` (O_EXCL). A lease whose holder died (a crash) is taken over, and a
 * uid that still has processes is skipped.
 */
export function createUidPool(options: UidPoolOptions): UidPool {
  const { range, dir } = options;
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? isProcessAlive;
  const uidBusy = options.uidBusy ?? uidHasProcesses;
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  const holderOf = (uid: number): Holder | null => {
    try {
      return JSON.parse(readFileSync(join(dir, String(uid)), 'utf8')) as Holder;
    } catch {
      return null;
    }
  };

  const take = (uid: number): UidLease => {
    const holder: Holder = { pid, start: processStartTime(pid), token: randomBytes(8).toString('hex') };
    const file = join(dir, String(uid));
    writeFileSync(`${file}.tmp`, JSON.stringify(holder), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    let released = false;
    return {
      owner: { uid, gid: uid },
      release() {
        if (released) return;
        released = true;
        if (holderOf(uid)?.token !== holder.token) return;
        try {
          unlinkSync(file);
        } catch {
          /* already gone */
        }
      },
    };
  };

  return {
    range,
    async acquire(preferred) {
      return withMutex(join(dir, MUTEX), () => {
        const held = new Set(readdirSync(dir).filter((n) => /^\d+$/.test(n)).map(Number));
        const candidates: number[] = [];
        if (preferred !== undefined && preferred >= range.first && preferred <= range.last) candidates.push(preferred);
        for (let uid = range.first; uid <= range.last; uid += 1) if (uid !== preferred) candidates.push(uid);
        for (const uid of candidates) {
          if (held.has(uid)) {
            const holder = holderOf(uid);
            if (holder && isAlive(holder.pid, holder.start ?? undefined)) continue;
          }
          if (uidBusy(uid)) continue;
          return take(uid);
        }
        throw new SandboxCapacityError(
          'uids-exhausted',
          `every sandbox uid of ${range.first}-${range.last} is in use: widen GREENFIX_SANDBOX_UIDS or lower GREENFIX_CONCURRENCY`,
        );
      });
    },
  };
}

async function withMutex<T>(file: string, body: () => T): Promise<T> {
  const deadline = Date.now() + MUTEX_WAIT_MS;
  for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
    try {
      closeSync(openSync(file, 'wx', 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (isStale(file)) {
        try {
          unlinkSync(file);
        } catch {
          /* another process broke it first */
        }
        continue;
      }
      if (Date.now() > deadline) throw new SandboxCapacityError('uids-exhausted', `the uid lease lock ${file} stayed taken for ${MUTEX_WAIT_MS / 1000}s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  try {
    return body();
  } finally {
    unlinkSync(file);
  }
}

function isStale(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > MUTEX_STALE_MS;
  } catch {
    return false;
  }
}

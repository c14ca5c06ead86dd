import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bytes on disk under `dir` (allocated blocks, so a sparse file counts what it really uses; a
 * hard-linked file once), walked with lstat: a symlink is never followed. Stops early once past
 * `stopAt`, so a runaway tree costs no more than the limit says.
 */
export async function treeBytes(dir: string, stopAt = Number.POSITIVE_INFINITY): Promise<number> {
  let bytes = 0;
  const linked = new Set<string>();
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined && bytes <= stopAt; current = pending.pop()) {
    let names: string[];
    try {
      names = await readdir(current);
    } catch {
      continue; // removed meanwhile, or not ours to read
    }
    for (const name of names) {
      const path = join(current, name);
      try {
        const st = await lstat(path);
        if (st.nlink > 1 && !st.isDirectory()) {
          const key = `${st.dev}:${st.ino}`;
          if (linked.has(key)) continue;
          linked.add(key);
        }
        bytes += st.blocks * 512;
        if (st.isDirectory()) pending.push(path);
      } catch {
        /* removed meanwhile */
      }
    }
  }
  return bytes;
}

export interface DiskWatch {
  stop(): void;
}

export interface WatchDiskOptions {
  dir: string;
  limitBytes: number;
  /** The shortest pause between two walks. */
  intervalMs: number;
  onExceeded: (bytes: number) => void;
}

/**
 * Walks `dir` again and again while a command runs; calls `onExceeded` once when it is past the
 * limit. The pause after a walk is at least nine times the walk's own duration, so on a huge
 * tree the watchdog uses at most a tenth of a core.
 */
export function watchDisk(options: WatchDiskOptions): DiskWatch {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    const started = Date.now();
    const bytes = await treeBytes(options.dir, options.limitBytes);
    if (stopped) return;
    if (bytes > options.limitBytes) {
      stopped = true;
      options.onExceeded(bytes);
      return;
    }
    timer = setTimeout(() => void tick(), Math.max(options.intervalMs, 9 * (Date.now() - started)));
  };
  timer = setTimeout(() => void tick(), options.intervalMs);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

import { constants, readdirSync, rmSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { IdentityFile } from './sandbox-identity.js';

/** `greenfix-etc-<pid of the greenfix that made it>-<random>`: tells the sweep whose it is. */
const PREFIX = 'greenfix-etc-';

/** A job's /etc, laid out once: bound read-only as one directory instead of an entry at a time. */
export interface EtcView {
  readonly dir: string;
  /** The directories among the entries: bound on top of the view (they have a mount point in it). */
  readonly dirs: readonly string[];
  remove(): Promise<void>;
}

export interface EtcViewOptions {
  /** The allow-listed host /etc entries (absolute paths; probeEtc). */
  etc: readonly string[];
  /** Replacements written in place of the host's (/etc/passwd naming the job's uid). */
  identity: readonly IdentityFile[];
  /** Where the view's directory is made (default: the system's temporary directory). */
  parent?: string;
}

/**
 * Copies the allow-listed /etc files (modes kept; owned by greenfix, so never writable by the
 * sandbox uid) and writes the identity files over theirs, in a new 0755 directory; a directory entry (alternatives, fonts…) gets an empty mount point and stays a bind
 * of the host's, live. One bind of the view and one per directory replace some thirty binds and
 * the descriptors of every command's passwd and group: bwrap spent a quarter of a command's launch
 * on them. Made per job (at its first command), so what an administrator changes in /etc reaches the next job. Null when
 * an entry is neither a file nor a directory: the caller binds the entries one by one as before.
 * Its file work runs on libuv's threads, the entries at once: at a job's start, a copy at a time on
 * the event loop held every webhook answer behind this disk's file creation (docs/decisions.md).
 */
export async function makeEtcView(options: EtcViewOptions): Promise<EtcView | null> {
  const dir = await mkdtemp(join(options.parent ?? tmpdir(), `${PREFIX}${process.pid}-`));
  try {
    await chmod(dir, 0o755);
    // Every entry settles before any failure is acted on: nothing is still being written when the view is removed.
    const settled = await Promise.allSettled(
      options.etc.map(async (path) => {
        const target = join(dir, basename(path));
        // Followed, as bwrap follows a bound symlink: what it names may not exist inside.
        const st = await stat(path);
        if (st.isDirectory()) return mkdir(target, { mode: 0o755 }).then(() => path);
        if (st.isFile()) return copyFile(path, target, constants.COPYFILE_EXCL).then(() => null);
        throw new Error(`${path} is neither a file nor a directory`);
      }),
    );
    const placed = settled.map((entry) => {
      if (entry.status === 'rejected') throw entry.reason;
      return entry.value;
    });
    for (const file of options.identity) {
      const target = join(dir, basename(file.path));
      await rm(target, { force: true });
      await writeFile(target, file.data, { mode: 0o644, flag: 'wx' });
    }
    return { dir, dirs: placed.filter((path): path is string => path !== null), remove: () => rm(dir, { recursive: true, force: true }) };
  } catch {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
}

/** Removes the views a greenfix that is gone left behind (a crash: its jobs never ended). */
export function sweepEtcViews(isAlive: (pid: number) => boolean, parent: string = tmpdir()): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (Number.isInteger(pid) && !isAlive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

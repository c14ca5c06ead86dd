import { chmodSync, constants, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  remove(): void;
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
 */
export function makeEtcView(options: EtcViewOptions): EtcView | null {
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), `${PREFIX}${process.pid}-`));
  try {
    chmodSync(dir, 0o755);
    const dirs: string[] = [];
    for (const path of options.etc) {
      const target = join(dir, basename(path));
      // Followed, as bwrap follows a bound symlink: what it names may not exist inside.
      const st = statSync(path);
      if (st.isDirectory()) {
        mkdirSync(target, { mode: 0o755 });
        dirs.push(path);
      } else if (st.isFile()) copyFileSync(path, target, constants.COPYFILE_EXCL);
      else throw new Error(`${path} is neither a file nor a directory`);
    }
    for (const file of options.identity) {
      const target = join(dir, basename(file.path));
      rmSync(target, { force: true });
      writeFileSync(target, file.data, { mode: 0o644, flag: 'wx' });
    }
    return { dir, dirs, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch {
    rmSync(dir, { recursive: true, force: true });
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

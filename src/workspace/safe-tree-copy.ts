import { closeSync, constants, copyFileSync, fchmodSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, symlinkSync, type Stats } from 'node:fs';

export type TreeCopyRefusal = 'missing' | 'not-directory' | 'special-file' | 'foreign-owner' | 'too-large' | 'changed';

/** A tree the host would not copy: a FIFO, device or socket in it, a foreign owner, a swap. */
export class TreeCopyError extends Error {
  override readonly name = 'TreeCopyError';
  constructor(
    readonly reason: TreeCopyRefusal,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export interface TreeCopyOptions {
  /** Every entry of the source must belong to this uid (the sandbox's); null = not checked. */
  expectOwner: number | null;
  /** Stop (TreeCopyError 'too-large') once this many bytes were copied. */
  maxBytes: number;
  /** Copy `name` also when it is a regular file or a symlink (default: a directory only). */
  anyType?: boolean;
  /** The permission bits a copied file may keep (default 0o777; set-id bits never survive). */
  fileMode?: number;
  /**
   * Files and symlinks owned by this uid (greenfix's own: what a dependency-cache restore linked,
   * link-tree.ts) are accepted besides `expectOwner`'s and hard-linked, not copied: no job can write
   * them. Such a file with group/other write or a set-id bit refuses the copy.
   */
  linkOwnedBy?: number;
}

export interface TreeCopyStats {
  files: number;
  bytes: number;
}

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * `name` inside the directory open as `fd`: resolved from the descriptor, never from a path. Names
 * are bytes (a file name need not be UTF-8).
 */
const at = (fd: number, name: Buffer) => Buffer.concat([Buffer.from(`/proc/self/fd/${fd}/`), name]);

/**
 * Copies `srcParent/name` (a directory the sandbox wrote: hostile) to `dstParent/name` (which must
 * not exist). Every step goes through descriptors (`/proc/self/fd/N/entry`, openat semantics), so a
 * symlink swapped in for a directory mid-walk is never followed: directories and files are opened
 * with O_NOFOLLOW and checked with fstat. Regular files are copied (reflink where the filesystem
 * can), symlinks recreated as symlinks (their target never read), directories walked. A FIFO,
 * device or socket, or an entry owned by anyone but `expectOwner`, refuses the whole copy: the
 * caller deletes what was written. Hard links only for `linkOwnedBy`'s files: anything the sandbox
 * made is copied, so the copy shares no inode the sandbox can write.
 */
export function copyTreeNoFollow(srcParent: string, dstParent: string, name: string, options: TreeCopyOptions): TreeCopyStats {
  const stats: TreeCopyStats = { files: 0, bytes: 0 };
  const srcFd = openDir(srcParent, srcParent);
  try {
    const dstFd = openDir(dstParent, dstParent);
    try {
      copyEntry(srcFd, dstFd, Buffer.from(name), `${srcParent}/${name}`, options, stats, true);
    } finally {
      closeSync(dstFd);
    }
  } finally {
    closeSync(srcFd);
  }
  return stats;
}

function copyEntry(srcDir: number, dstDir: number, name: Buffer, shown: string, options: TreeCopyOptions, stats: TreeCopyStats, top: boolean): void {
  let st: Stats;
  try {
    st = lstatSync(at(srcDir, name));
  } catch {
    throw new TreeCopyError('missing', shown, `${shown} does not exist`);
  }
  if (top && !options.anyType && !st.isDirectory()) throw new TreeCopyError('not-directory', shown, `${shown} is not a directory (a symlink or file): not copied`);
  const greenfixOwn = options.linkOwnedBy !== undefined && st.uid === options.linkOwnedBy && (st.isFile() || st.isSymbolicLink());
  if (greenfixOwn) {
    if (st.isFile() && (st.mode & 0o6022) !== 0) throw new TreeCopyError('foreign-owner', shown, `${shown} belongs to greenfix but has group/other write or a set-id bit: the tree is not copied`);
    if (linked(srcDir, dstDir, name)) {
      same(st, lstatSync(at(dstDir, name)), shown);
      stats.files += 1;
      if (st.isFile()) stats.bytes += st.size;
      return;
    }
  } else {
    checkOwner(st, shown, options);
  }
  if (st.isSymbolicLink()) {
    symlinkSync(readlinkSync(at(srcDir, name), { encoding: 'buffer' }), at(dstDir, name));
    stats.files += 1;
    return;
  }
  if (st.isDirectory()) {
    const fd = openDir(at(srcDir, name), shown);
    try {
      same(st, fstatSync(fd), shown);
      mkdirSync(at(dstDir, name), { mode: 0o755 });
      const sub = openDir(at(dstDir, name), shown);
      try {
        for (const entry of readdirSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' })) copyEntry(fd, sub, entry, `${shown}/${entry.toString()}`, options, stats, false);
      } finally {
        closeSync(sub);
      }
    } finally {
      closeSync(fd);
    }
    return;
  }
  if (!st.isFile()) throw new TreeCopyError('special-file', shown, `${shown} is a FIFO, device or socket: the tree is not copied`);
  const fd = openSync(at(srcDir, name), FILE_FLAGS);
  try {
    const fst = fstatSync(fd);
    same(st, fst, shown);
    stats.bytes += fst.size;
    if (stats.bytes > options.maxBytes) throw new TreeCopyError('too-large', shown, `the tree is larger than ${options.maxBytes} bytes: not copied`);
    // The source is the open descriptor (no path to swap); EXCL creates the target without following anything.
    copyFileSync(`/proc/self/fd/${fd}`, at(dstDir, name), constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    // Permission bits only: a setuid bit the sandbox set must not survive in a host-owned copy.
    const out = openSync(at(dstDir, name), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      fchmodSync(out, fst.mode & (options.fileMode ?? 0o777));
    } finally {
      closeSync(out);
    }
    stats.files += 1;
  } finally {
    closeSync(fd);
  }
}

/** A hard link of `name` (link(2) does not follow the last component); false across filesystems (then copied). */
function linked(srcDir: number, dstDir: number, name: Buffer): boolean {
  try {
    linkSync(at(srcDir, name), at(dstDir, name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EXDEV') return false;
    throw error;
  }
}

function openDir(path: string | Buffer, shown: string): number {
  try {
    return openSync(path, DIR_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new TreeCopyError('missing', shown, `${shown} does not exist`);
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new TreeCopyError('changed', shown, `${shown} is no longer a directory: not followed`);
    throw error;
  }
}

function checkOwner(st: Stats, shown: string, options: TreeCopyOptions): void {
  if (options.expectOwner !== null && st.uid !== options.expectOwner) {
    throw new TreeCopyError('foreign-owner', shown, `${shown} belongs to uid ${st.uid}, not the sandbox's ${options.expectOwner}: the tree is not copied`);
  }
}

/** The entry opened is the one lstat saw: same inode, same type. */
function same(a: Stats, b: Stats, shown: string): void {
  if (a.ino !== b.ino || a.dev !== b.dev || (a.mode & constants.S_IFMT) !== (b.mode & constants.S_IFMT)) {
    throw new TreeCopyError('changed', shown, `${shown} changed while it was copied: not copied`);
  }
}

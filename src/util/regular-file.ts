import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';

export type RegularFileRefusal = 'missing' | 'symlink' | 'symlinked-parent' | 'not-regular' | 'too-large';

/**
 * A file the host refused to read or write: a link, FIFO, device or oversized file where a
 * regular one was expected. Branch on `reason`; the message names the file and why.
 */
export class RegularFileError extends Error {
  override readonly name = 'RegularFileError';
  constructor(
    readonly reason: RegularFileRefusal,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const NOFOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens `path` without following a final symlink and without blocking (a FIFO opens at once with
 * O_NONBLOCK), then checks with fstat — on the descriptor, so nothing can be swapped in between —
 * that it is a regular file. `write` creates or truncates it.
 */
export function openRegularFile(path: string, mode: 'read' | 'write'): number {
  const flags = mode === 'read' ? constants.O_RDONLY | NOFOLLOW : constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW;
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RegularFileError('missing', path, `${path} does not exist`);
    if (code === 'ELOOP') throw new RegularFileError('symlink', path, `${path} is a symbolic link: not followed`);
    if (code === 'ENXIO' || code === 'EISDIR') throw new RegularFileError('not-regular', path, `${path} is not a regular file`);
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new RegularFileError('not-regular', path, `${path} is not a regular file (a FIFO, device or directory): not read`);
  }
  return fd;
}

/** Up to `length` bytes from `position`, or from the end when `fromEnd`. */
export function readFd(fd: number, length: number, fromEnd = false): Buffer {
  const size = fstatSync(fd).size;
  const n = Math.max(0, Math.min(length, size));
  const buf = Buffer.alloc(n);
  let got = 0;
  const start = fromEnd ? size - n : 0;
  while (got < n) {
    const r = readSync(fd, buf, got, n - got, start + got);
    if (r === 0) break;
    got += r;
  }
  return buf.subarray(0, got);
}

/**
 * Reads `rel` below `root` (a worktree the sandbox can write) as the host: refuses a symlink in
 * any component, a FIFO, device or directory, and anything over `maxBytes`, never blocks. Every
 * host-side read of a worktree file goes through here (AGENTS.md, package.json, …).
 */
export function readRegularFile(root: string, rel: string, maxBytes: number): Buffer {
  const clean = normalize(rel);
  if (isAbsolute(clean) || clean.split(sep).includes('..')) throw new TypeError(`readRegularFile: ${rel} is not a path inside the root`);
  const parts = clean.split(sep);
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      throw new RegularFileError('missing', join(root, clean), `${rel} does not exist`);
    }
    if (st.isSymbolicLink()) throw new RegularFileError('symlinked-parent', join(root, clean), `${rel}: ${part}/ is a symbolic link: not followed`);
    if (!st.isDirectory()) throw new RegularFileError('missing', join(root, clean), `${rel} does not exist`);
  }
  const path = join(root, clean);
  const fd = openRegularFile(path, 'read');
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) throw new RegularFileError('too-large', path, `${rel} is ${size} bytes, over the ${maxBytes}-byte limit: not read`);
    return readFd(fd, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/** Like readRegularFile, as UTF-8 text; a missing file is null, any other refusal is thrown. */
export function readRegularText(root: string, rel: string, maxBytes: number): string | null {
  try {
    return readRegularFile(root, rel, maxBytes).toString('utf8');
  } catch (error) {
    if (error instanceof RegularFileError && error.reason === 'missing') return null;
    throw error;
  }
}

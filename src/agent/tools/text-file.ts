import { closeSync, constants, fstatSync, openSync, statSync, type Stats } from 'node:fs';
import { readFd } from '../../util/regular-file.js';
import { ToolRefusal } from './errors.js';

/** Files above this are not loaded whole; the model can use `search` or `run` (head, sed). */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

export interface TextFile {
  text: string;
  stats: Stats;
}

export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Strict UTF-8 (keeping a BOM so a write gives it back); null when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** `stat` or null when nothing is there. */
export function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Loads a workspace file as text, refusing what would be corrupted by a round trip through a
 * JS string: NUL bytes (binary) and invalid UTF-8 (Latin-1 and friends). Opened with O_NONBLOCK
 * and checked with fstat on the descriptor: a FIFO or device is refused and never blocks, even
 * if one replaced the file after the path was resolved.
 */
export function loadTextFile(abs: string, rel: string): TextFile {
  const stats = statOrNull(abs);
  if (!stats) throw new ToolRefusal('not_found', `${rel}: no such file; use list_files or search to find it`);
  if (stats.isFile()) return readOpened(abs, rel);
  return refuseNonFile(stats, rel);
}

function readOpened(abs: string, rel: string): TextFile {
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return refuseNonFile(stats, rel);
    if (stats.size > MAX_TEXT_BYTES) {
      throw new ToolRefusal('too_large', `${rel}: ${stats.size} bytes, too large to load; use search, or run with head/sed`);
    }
    return decodeText(readFd(fd, stats.size), stats, rel);
  } finally {
    closeSync(fd);
  }
}

function refuseNonFile(stats: Stats, rel: string): never {
  if (stats.isDirectory()) throw new ToolRefusal('is_directory', `${rel}: is a directory: use list_files`);
  throw new ToolRefusal('not_a_file', `${rel}: not a regular file (a FIFO, device or socket): not read`);
}

function decodeText(bytes: Buffer, stats: Stats, rel: string): TextFile {
  const text = isBinary(bytes) ? null : decodeUtf8(bytes);
  if (text === null) {
    throw new ToolRefusal('binary', `${rel}: binary file, ${bytes.length} bytes (not UTF-8 text); inspect it with run (e.g. xxd, iconv)`);
  }
  return { text, stats };
}

/** Lines without their terminators (`\n` or `\r\n`); a final newline does not start a new line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** `   12 │ text`, the format the model sees everywhere a line number is shown. */
export function numberLine(n: number, text: string): string {
  return `${n.toString().padStart(6)} │ ${text}`;
}

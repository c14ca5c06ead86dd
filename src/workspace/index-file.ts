import { readFileSync } from 'node:fs';

/** Where one entry of an index file lies: its first byte and its path's bytes (NUL excluded). */
export interface IndexEntrySpan {
  at: number;
  nameStart: number;
  nameEnd: number;
}

/** The entries of a version 2 or 3 index file, where its extensions begin; or why it cannot be read. */
export type IndexEntries = { entries: IndexEntrySpan[]; extensionsAt: number; version: number } | { unsupported: string };

const HEADER = 12;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 each). */
export const STAT_BYTES = 40;
/** The entry's mode, within its stat data. */
export const MODE_OFFSET = 24;

/**
 * Walks the entries of an index file as git writes it in version 2 or 3 (index-format.txt):
 * the private index is kept in one of those (private-index.ts). A split index (`link`) keeps most
 * entries elsewhere and is refused too.
 */
export function indexEntries(data: Buffer, oidBytes: number): IndexEntries {
  if (data.length < HEADER + oidBytes || data.toString('latin1', 0, 4) !== 'DIRC') return { unsupported: 'not an index file' };
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return { unsupported: `index version ${version}` };
  const count = data.readUInt32BE(8);
  const entries: IndexEntrySpan[] = [];
  let at = HEADER;
  for (let i = 0; i < count; i++) {
    const flagsAt = at + STAT_BYTES + oidBytes;
    if (flagsAt + 2 > data.length) return { unsupported: 'a truncated entry' };
    const extended = version === 3 && (data.readUInt16BE(flagsAt) & 0x4000) !== 0;
    const nameStart = flagsAt + 2 + (extended ? 2 : 0);
    const nameEnd = data.indexOf(0, nameStart);
    if (nameEnd < 0) return { unsupported: 'a truncated entry' };
    entries.push({ at, nameStart, nameEnd });
    // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
    at += (nameEnd - at + 8) & ~7;
  }
  for (let ext = at; ext + 8 <= data.length - oidBytes; ext += 8 + data.readUInt32BE(ext + 4)) {
    if (data.toString('latin1', ext, ext + 4) === 'link') return { unsupported: 'a split index' };
  }
  return { entries, extensionsAt: at, version };
}

/** Every path of the index file with its mode (0o160000: a submodule); or why it cannot be read. */
export function readIndexPaths(indexFile: string, oidBytes: number): Map<string, number> | { unsupported: string } {
  const data = readFileSync(indexFile);
  const read = indexEntries(data, oidBytes);
  if ('unsupported' in read) return read;
  const paths = new Map<string, number>();
  for (const entry of read.entries) {
    const name = data.subarray(entry.nameStart, entry.nameEnd);
    const path = name.toString('utf8');
    if (!Buffer.from(path, 'utf8').equals(name)) return { unsupported: 'a path that is not UTF-8' };
    paths.set(path, data.readUInt32BE(entry.at + MODE_OFFSET));
  }
  return paths;
}

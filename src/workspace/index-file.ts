import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

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

/** Lookups in an index file's sorted paths, without decoding all of them (20,000 names cost more than the hash). */
export interface IndexLookup {
  has(path: string): boolean;
  /** Every path below `dir` (as bytes sort, they are one run). */
  below(dir: string): string[];
  /** Whether any entry is a submodule (mode 160000). */
  readonly hasSubmodule: boolean;
  /** The entry of `path`, if any. */
  find(path: string): IndexEntrySpan | undefined;
  /** Every entry, in the index's (byte) order, and the first one not below `key` in that order. */
  readonly entries: readonly IndexEntrySpan[];
  lowerBound(key: Buffer): number;
  /** The whole file, its entries and where its extensions begin (index-edit.ts edits it). */
  readonly data: Buffer;
  readonly extensionsAt: number;
}

const SUBMODULE = 0o160000;

/** Reads an index file for lookups by path (git keeps entries sorted by their path's bytes). */
export function readIndexLookup(indexFile: string, oidBytes: number): IndexLookup | { unsupported: string } {
  const data = readFileSync(indexFile);
  const read = indexEntries(data, oidBytes);
  if ('unsupported' in read) return read;
  return lookupOver(data, read.entries, read.extensionsAt, read.entries.some((entry) => data.readUInt32BE(entry.at + MODE_OFFSET) === SUBMODULE));
}

/**
 * The same lookups over `data`, an edited copy of the index whose entries lie where they lay in
 * `index` (only bytes inside entries changed, no entry became a submodule: index-edit.ts).
 */
export function rebaseLookup(index: IndexLookup, data: Buffer): IndexLookup {
  return lookupOver(data, index.entries, index.extensionsAt, index.hasSubmodule);
}

function lookupOver(data: Buffer, entries: readonly IndexEntrySpan[], extensionsAt: number, hasSubmodule: boolean): IndexLookup {
  const name = (i: number) => data.subarray(entries[i]!.nameStart, entries[i]!.nameEnd);
  /** The first entry whose name is not below `key` in byte order. */
  const lowerBound = (key: Buffer): number => {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare(name(mid), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const find = (path: string): IndexEntrySpan | undefined => {
    const key = Buffer.from(path, 'utf8');
    const at = lowerBound(key);
    return at < entries.length && name(at).equals(key) ? entries[at] : undefined;
  };
  return {
    data,
    entries,
    lowerBound,
    extensionsAt,
    find,
    has: (path) => find(path) !== undefined,
    below(dir) {
      const prefix = Buffer.from(`${dir}/`, 'utf8');
      const found: string[] = [];
      for (let i = lowerBound(prefix); i < entries.length; i++) {
        const entry = name(i);
        if (entry.length < prefix.length || !entry.subarray(0, prefix.length).equals(prefix)) break;
        found.push(entry.toString('utf8'));
      }
      return found;
    },
    hasSubmodule,
  };
}

/**
 * Writes an index file whole from `image` (header, entries, extensions, then the last checksum
 * read): the checksum is computed again into its last bytes, unless those are zeros (the file had
 * none: index.skipHash); a new file renamed over the old one.
 */
export function writeIndexImage(indexFile: string, image: Buffer, oidBytes: number): void {
  const end = image.length - oidBytes;
  if (image.subarray(end).some((byte) => byte !== 0)) createHash(oidBytes === 32 ? 'sha256' : 'sha1').update(image.subarray(0, end)).digest().copy(image, end);
  const tmp = `${indexFile}.edit`;
  writeFileSync(tmp, image, { mode: 0o600 });
  renameSync(tmp, indexFile);
}

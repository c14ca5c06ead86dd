import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** How many entries lost their stat data, or why the index could not be read (convert it first). */
export type ForgetResult = { forgotten: number } | { unsupported: string };

const HEADER = 12;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 each). */
const STAT_BYTES = 40;

/**
 * Clears the stat data of every entry of a version 2 or 3 index whose ctime (seconds) is
 * `sinceSec` or later, so the next `git add` re-hashes those files. Git compares ctime and mtime
 * to the second (it is built without nanoseconds), and a command can put any mtime back; only
 * ctime it cannot set. A file rewritten in the same second as the stat git recorded keeps that
 * ctime second and would keep its old blob: entries that recent are forgotten before anyone can
 * rely on them. Racy git's own rule does the same for mtime, which a lying command controls.
 * The file is rewritten in place (a new file renamed over it) with its checksum; the blobs, the
 * cache tree and every other extension stay as they are.
 */
export function forgetRecentStat(indexFile: string, sinceSec: number, oidBytes: number): ForgetResult {
  const data = readFileSync(indexFile);
  if (data.length < HEADER + oidBytes || data.toString('latin1', 0, 4) !== 'DIRC') return { unsupported: 'not an index file' };
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return { unsupported: `index version ${version}` };
  const count = data.readUInt32BE(8);
  const recent: number[] = [];
  let at = HEADER;
  for (let i = 0; i < count; i++) {
    const flagsAt = at + STAT_BYTES + oidBytes;
    if (flagsAt + 2 > data.length) return { unsupported: 'a truncated entry' };
    const extended = version === 3 && (data.readUInt16BE(flagsAt) & 0x4000) !== 0;
    const end = data.indexOf(0, flagsAt + 2 + (extended ? 2 : 0));
    if (end < 0) return { unsupported: 'a truncated entry' };
    if (data.readUInt32BE(at) >= sinceSec) recent.push(at);
    // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
    at += (end - at + 8) & ~7;
  }
  // An index split in two (`link`) keeps most entries elsewhere.
  for (let ext = at; ext + 8 <= data.length - oidBytes; ext += 8 + data.readUInt32BE(ext + 4)) {
    if (data.toString('latin1', ext, ext + 4) === 'link') return { unsupported: 'a split index' };
  }
  if (recent.length === 0) return { forgotten: 0 };
  for (const entry of recent) {
    data.fill(0, entry, entry + 24); // ctime, mtime, dev, ino
    data.fill(0, entry + 36, entry + 40); // size
  }
  const body = data.subarray(0, data.length - oidBytes);
  // index.skipHash writes no checksum (zeros): keep it that way.
  if (data.subarray(body.length).some((byte) => byte !== 0)) createHash(oidBytes === 32 ? 'sha256' : 'sha1').update(body).digest().copy(data, body.length);
  const tmp = `${indexFile}.forget`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, indexFile);
  return { forgotten: recent.length };
}

import { readFileSync } from 'node:fs';
import { indexEntries, writeIndexImage } from './index-file.js';

/** How many entries lost their stat data, or why the index could not be read (convert it first). */
export type ForgetResult = { forgotten: number } | { unsupported: string };

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
  const read = indexEntries(data, oidBytes);
  if ('unsupported' in read) return read;
  const recent = read.entries.filter((entry) => data.readUInt32BE(entry.at) >= sinceSec).map((entry) => entry.at);
  if (recent.length === 0) return { forgotten: 0 };
  for (const entry of recent) {
    data.fill(0, entry, entry + 24); // ctime, mtime, dev, ino
    data.fill(0, entry + 36, entry + 40); // size
  }
  // index.skipHash writes no checksum (zeros): writeIndexImage keeps it that way.
  writeIndexImage(indexFile, data, oidBytes);
  return { forgotten: recent.length };
}

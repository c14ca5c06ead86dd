import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Stats } from 'node:fs';

/** What a tree of files holds: one line per entry, and the sha256 of all of them. */
export interface TreeManifest {
  /** `<type> <mode> <size> <sha256> <path as JSON>` per entry, sorted by path; a trailing newline. */
  text: string;
  digest: string;
  files: number;
  bytes: number;
}

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1024 * 1024;

/**
 * The manifest of `names` (top-level entries of `root`, each a file, symlink or directory): every
 * entry's path, type, permission bits, size and content digest (a symlink's target, never
 * followed; a FIFO, socket or device by type only, never opened). Owners and times are left out:
 * a copy given to another uid, or made later, has the same manifest. Names are bytes, shown as
 * UTF-8 with replacement, so two names differing only in invalid bytes hash alike: acceptable for
 * an integrity check of copies greenfix made itself. For trees nothing else writes while they are
 * read (a cache entry, a fresh copy, a worktree after its setup's processes are gone).
 */
export function treeManifest(root: string, names: readonly string[]): TreeManifest {
  const lines: string[] = [];
  const totals = { files: 0, bytes: 0 };
  for (const name of [...names].sort()) walk(`${root}/${name}`, name, lines, totals);
  const text = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  return { text, digest: createHash('sha256').update(text).digest('hex'), ...totals };
}

/** The first line where two manifests differ, for a warning ("node_modules/.bin/jest: …"). */
export function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return `${pathOf(a[i] ?? b[i] ?? '')} (stored: ${a[i] || 'absent'}; found: ${b[i] || 'absent'})`;
  }
  return 'none';
}

function pathOf(line: string): string {
  const at = line.indexOf('"');
  return at >= 0 ? (JSON.parse(line.slice(at)) as string) : line;
}

function walk(path: string, rel: string, lines: string[], totals: { files: number; bytes: number }): void {
  const st = lstatSync(path);
  lines.push(manifestLine(path, rel, st));
  if (st.isDirectory()) {
    for (const name of readdirSync(path).sort()) walk(`${path}/${name}`, `${rel}/${name}`, lines, totals);
    return;
  }
  totals.files += 1;
  if (st.isFile()) totals.bytes += st.size;
}

/**
 * The manifest line of one entry (`st` is its lstat). With `content: false` a regular file's
 * digest is `*` and its bytes are never read: the entry's shape (see shapeOf).
 */
export function manifestLine(path: string, rel: string, st: Stats, content = true): string {
  const mode = (st.mode & 0o7777).toString(8);
  if (st.isDirectory()) return `d ${mode} 0 - ${JSON.stringify(rel)}`;
  if (st.isSymbolicLink()) {
    const target = readlinkSync(path, { encoding: 'buffer' });
    return `l ${mode} ${target.length} ${sha256(target)} ${JSON.stringify(rel)}`;
  }
  if (!st.isFile()) return `${kind(st)} ${mode} 0 - ${JSON.stringify(rel)}`;
  return `f ${mode} ${st.size} ${content ? fileDigest(path, st) : '*'} ${JSON.stringify(rel)}`;
}

/** A manifest line as `manifestLine(…, false)` gives it: a file's content digest replaced by `*`. */
export function shapeOf(line: string): string {
  return line.startsWith('f ') ? line.replace(/^(f \S+ \S+ )[0-9a-f]{64} /, '$1* ') : line;
}

/** The content's sha256, read through a descriptor that is the file lstat saw (never a swapped-in link). */
function fileDigest(path: string, st: Stats): string {
  const fd = openSync(path, FILE_FLAGS);
  try {
    const opened = fstatSync(fd);
    if (opened.ino !== st.ino || opened.dev !== st.dev) throw new Error(`${path} changed while it was read`);
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let n = readSync(fd, buffer, 0, CHUNK, null); n > 0; n = readSync(fd, buffer, 0, CHUNK, null)) hash.update(buffer.subarray(0, n));
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

function kind(st: Stats): string {
  if (st.isFIFO()) return 'p';
  if (st.isSocket()) return 's';
  return st.isCharacterDevice() ? 'c' : 'b';
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

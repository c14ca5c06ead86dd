import { lchownSync, linkSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import type { FileOwner } from '../sandbox/ownership.js';
import { manifestLine, shapeOf } from './tree-manifest.js';

/** Why a tree was not linked: the caller copies instead (or drops the entry when it no longer matches). */
export class LinkTreeError extends Error {
  override readonly name = 'LinkTreeError';
  constructor(
    readonly reason: 'writable' | 'foreign-owner' | 'special-file' | 'cross-device' | 'differs',
    message: string,
  ) {
    super(message);
  }
}

export interface LinkTreeOptions {
  /** The uid that must own every file and symlink of the source (greenfix's own). */
  sourceOwner: number;
  /** Who gets the new directories (the job's sandbox uid). Files and symlinks stay the source's. */
  dirOwner: FileOwner;
  /**
   * The source's manifest (tree-manifest.ts), checked by shape while linking: every entry's path,
   * type, permission bits and size (a symlink's target too); file contents are not read.
   */
  manifest: string;
}

/**
 * Gives `dstRoot` the trees `names` of `srcRoot` (a dependency cache entry) by hard links: new
 * directories owned by the job, so it can add, rename and remove entries, and every file the
 * entry's own inode — owned by greenfix, with no group or other write — so a job's command can
 * read and execute it but never write, truncate, chmod or touch it: what one job does to its
 * node_modules cannot reach the cache or another job. A file with group or other write, a foreign
 * owner, a special file or another filesystem refuses the link ('writable', 'foreign-owner',
 * 'special-file', 'cross-device': copy instead); a shape that differs from the manifest refuses it
 * too ('differs': the entry is bad). The caller removes what was made when this throws. The source is host-owned and trusted; the
 * destination is fresh (no command of the job has run in it yet).
 */
export function linkTree(srcRoot: string, dstRoot: string, names: readonly string[], options: LinkTreeOptions): { files: number } {
  const expected = options.manifest.split('\n');
  const state = { line: 0, files: 0 };
  for (const name of [...names].sort()) link(`${srcRoot}/${name}`, `${dstRoot}/${name}`, name, options, expected, state);
  if (state.line !== expected.length - 1) throw differs(expected[state.line] ?? '', 'absent');
  return { files: state.files };
}

function link(src: string, dst: string, rel: string, options: LinkTreeOptions, expected: string[], state: { line: number; files: number }): void {
  const st = lstatSync(src);
  const line = manifestLine(src, rel, st, false);
  const want = expected[state.line] ?? '';
  if (shapeOf(want) !== line) throw differs(want, line);
  state.line += 1;
  if (st.isDirectory()) {
    mkdirSync(dst, { mode: st.mode & 0o7777 });
    lchownSync(dst, options.dirOwner.uid, options.dirOwner.gid);
    for (const name of readdirSync(src).sort()) link(`${src}/${name}`, `${dst}/${name}`, `${rel}/${name}`, options, expected, state);
    return;
  }
  if (!st.isFile() && !st.isSymbolicLink()) throw new LinkTreeError('special-file', `${rel} is a FIFO, device or socket`);
  if (st.uid !== options.sourceOwner) throw new LinkTreeError('foreign-owner', `${rel} belongs to uid ${st.uid}, not greenfix's ${options.sourceOwner}`);
  if (st.isFile() && (st.mode & 0o022) !== 0) throw new LinkTreeError('writable', `${rel} has group or other write (mode ${(st.mode & 0o7777).toString(8)}): a link would let a job write the cache`);
  try {
    linkSync(src, dst); // link(2) never follows a symlink: a symlink is linked as itself
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EXDEV') throw new LinkTreeError('cross-device', `the cache and the worktree are on different filesystems`);
    throw error;
  }
  state.files += 1;
}

function differs(stored: string, found: string): LinkTreeError {
  return new LinkTreeError('differs', `its files differ from the manifest written when it was stored (stored: ${stored || 'absent'}; found: ${found})`);
}

import { createHash } from 'node:crypto';
import { closeSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { MODE_OFFSET, type IndexLookup } from './index-file.js';
import { editBlobs, type BlobEdit } from './index-edit.js';
import { openRegularFile, readFd, RegularFileError } from '../util/regular-file.js';
import type { IndexMemo } from './index-memo.js';
import type { ObjectBatches } from './object-batches.js';
import type { RepoHandle } from './private-index.js';

const REGULAR = 0o100644;
const EXECUTABLE = 0o100755;
const PLAIN_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Which of `paths` (present, not ignored) take the short way: tracked regular files whose
 * executable bit did not change and whose name `hash-object --stdin-paths` reads back as is (no
 * newline, no leading quote, no trailing carriage return: git takes the line for a CRLF one).
 * Everything else is git's to decide (`update-index`: a new file, a symlink, a mode change,
 * core.fileMode).
 */
export function splitBlobPaths(root: string, index: IndexLookup, paths: readonly string[]): { blobs: string[]; rest: string[] } {
  const blobs: string[] = [];
  const rest: string[] = [];
  for (const path of paths) {
    const entry = index.find(path);
    const mode = entry === undefined ? undefined : index.data.readUInt32BE(entry.at + MODE_OFFSET);
    const st = mode === REGULAR || mode === EXECUTABLE ? lstatSync(join(root, path), { throwIfNoEntry: false }) : undefined;
    const same = st !== undefined && st.isFile() && ((st.mode & 0o100) !== 0) === (mode === EXECUTABLE);
    (same && !path.includes('\n') && !path.endsWith('\r') && !path.startsWith('"') ? blobs : rest).push(path);
  }
  return { blobs, rest };
}

/**
 * Hashes `paths` into the object store (`git hash-object -w`: the repository's attributes apply,
 * as for `git add`, never its stat data), points their entries at the blobs with no stat data and
 * rebuilds the trees above them (index-edit.ts; `git mktree` writes them and must name each as
 * computed). The blob ids are first guessed from the bytes (no filter), so both gits work at once;
 * when git names a blob otherwise (an attribute, a write meanwhile), its ids are used and the
 * trees made again. Both gits keep running between hashes (object-batches.ts); the edited index
 * is kept in memory, written when git or a reader next needs the file (index-memo.ts). Returns
 * the paths still to update another way (all of them if the index could not be edited), or the
 * root tree when none is left.
 */
export async function refreshBlobs(repo: RepoHandle & { memo: IndexMemo }, objects: ObjectBatches, paths: readonly string[], oidBytes: number): Promise<{ rest: readonly string[]; tree?: string }> {
  if (paths.length === 0) return { rest: [] };
  const modes = paths.map((path) => ((lstatSync(join(repo.root, path)).mode & 0o100) !== 0 ? EXECUTABLE : REGULAR));
  const edited = (oids: readonly string[]) => {
    const index = repo.memo.read();
    return 'unsupported' in index ? undefined : editBlobs(index, oidBytes, paths.map((path, i) => ({ path, oid: oids[i]!, mode: modes[i]! })));
  };
  const guessed = paths.map((path) => plainBlobId(join(repo.root, path), oidBytes));
  let oids: string[];
  if (guessed.every((oid): oid is string => oid !== undefined)) {
    const edit = edited(guessed);
    if (edit === undefined) return { rest: paths };
    // The blobs are being written meanwhile: mktree must not look for them (the ids are compared after).
    const [hashed, made] = await Promise.all([objects.hashFiles(paths), objects.makeTrees(edit.mktreeInput, edit.trees.length, 'missing')]);
    if (same(hashed, guessed) && same(made, edit.trees)) return kept(repo.memo, edit, made);
    oids = hashed;
  } else {
    oids = await objects.hashFiles(paths);
  }
  const edit = edited(oids);
  if (edit === undefined) return { rest: paths };
  const made = await objects.makeTrees(edit.mktreeInput, edit.trees.length, 'present');
  return same(made, edit.trees) ? kept(repo.memo, edit, made) : { rest: paths };
}

function kept(memo: IndexMemo, edit: BlobEdit, made: readonly string[]): { rest: readonly string[]; tree: string } {
  memo.keep(edit.index);
  // Parents come last: the root's tree is the worktree's, as write-tree would name it now.
  return { rest: [], tree: made.at(-1)! };
}

/** The id of a blob of the file's bytes as they are (git's may differ: filters); undefined for anything but a regular file up to 8 MiB. */
function plainBlobId(path: string, oidBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openRegularFile(path, 'read');
  } catch (error) {
    if (error instanceof RegularFileError) return undefined;
    throw error;
  }
  try {
    const content = readFd(fd, PLAIN_MAX_BYTES + 1);
    if (content.length > PLAIN_MAX_BYTES) return undefined;
    return createHash(oidBytes === 32 ? 'sha256' : 'sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
  } finally {
    closeSync(fd);
  }
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

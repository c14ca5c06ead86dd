import { createHash } from 'node:crypto';
import { closeSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { MODE_OFFSET, type IndexLookup } from './index-file.js';
import { editBlobs, type BlobEdit } from './index-edit.js';
import { openRegularFile, readFd, RegularFileError } from '../util/regular-file.js';
import { runIn, type RepoHandle } from './private-index.js';

const REGULAR = 0o100644;
const EXECUTABLE = 0o100755;
const PLAIN_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Which of `paths` (present, not ignored) take the short way: tracked regular files whose
 * executable bit did not change and whose name `hash-object --stdin-paths` reads back as is (no
 * newline, no leading quote). Everything else is git's to decide (`update-index`: a new file, a
 * symlink, a mode change, core.fileMode).
 */
export function splitBlobPaths(root: string, index: IndexLookup, paths: readonly string[]): { blobs: string[]; rest: string[] } {
  const blobs: string[] = [];
  const rest: string[] = [];
  for (const path of paths) {
    const entry = index.find(path);
    const mode = entry === undefined ? undefined : index.data.readUInt32BE(entry.at + MODE_OFFSET);
    const st = mode === REGULAR || mode === EXECUTABLE ? lstatSync(join(root, path), { throwIfNoEntry: false }) : undefined;
    const same = st !== undefined && st.isFile() && ((st.mode & 0o100) !== 0) === (mode === EXECUTABLE);
    (same && !path.includes('\n') && !path.startsWith('"') ? blobs : rest).push(path);
  }
  return { blobs, rest };
}

/**
 * Hashes `paths` into the object store (`git hash-object -w`: the repository's attributes apply,
 * as for `git add`, never its stat data), points their entries at the blobs with no stat data and
 * rebuilds the trees above them (index-edit.ts; `git mktree` writes them and must name each as
 * computed). The blob ids are first guessed from the bytes (no filter), so both git processes run
 * at once; when git names a blob otherwise (an attribute, a write meanwhile), its ids are used
 * and the trees made again. Returns the paths still to update another way (all of them if the
 * index could not be edited), or the root tree when none is left. `read`: the index as last
 * read, if git wrote none since.
 */
export async function refreshBlobs(repo: RepoHandle, paths: readonly string[], oidBytes: number, read?: IndexLookup): Promise<{ rest: readonly string[]; tree?: string }> {
  if (paths.length === 0) return { rest: [] };
  const modes = paths.map((path) => ((lstatSync(join(repo.root, path)).mode & 0o100) !== 0 ? EXECUTABLE : REGULAR));
  const updates = (oids: readonly string[]) => paths.map((path, i) => ({ path, oid: oids[i]!, mode: modes[i]! }));
  const guessed = paths.map((path) => plainBlobId(join(repo.root, path), oidBytes));
  let oids: string[];
  let index = read;
  if (guessed.every((oid): oid is string => oid !== undefined)) {
    const edit = editBlobs(repo.indexFile, oidBytes, updates(guessed), index);
    // Its buffer now holds the guess: read the index again if the guess was wrong.
    index = undefined;
    if (edit === undefined) return { rest: paths };
    // The blobs are being written meanwhile: mktree must not look for them (the ids are compared after).
    const [hashed, made] = await Promise.all([hashObjects(repo, paths), makeTrees(repo, edit, ['--missing'])]);
    if (same(hashed, guessed) && same(made, edit.trees)) return committed(edit, made);
    oids = hashed;
  } else {
    oids = await hashObjects(repo, paths);
  }
  const edit = editBlobs(repo.indexFile, oidBytes, updates(oids), index);
  if (edit === undefined) return { rest: paths };
  const made = await makeTrees(repo, edit);
  return same(made, edit.trees) ? committed(edit, made) : { rest: paths };
}

function committed(edit: BlobEdit, made: readonly string[]): { rest: readonly string[]; tree: string } {
  edit.commit();
  // Parents come last: the root's tree is the worktree's, as write-tree would name it now.
  return { rest: [], tree: made.at(-1)! };
}

async function hashObjects(repo: RepoHandle, paths: readonly string[]): Promise<string[]> {
  const oids = (await runIn(repo, ['hash-object', '-w', '--stdin-paths'], paths.map((path) => `${path}\n`).join(''))).split('\n').filter((line) => line !== '');
  if (oids.length !== paths.length) throw new Error(`git hash-object gave ${oids.length} ids for ${paths.length} paths`);
  return oids;
}

/** mktree writes the trees and names them: any difference from what was computed, and git decides instead. */
async function makeTrees(repo: RepoHandle, edit: BlobEdit, flags: readonly string[] = []): Promise<string[]> {
  return (await runIn(repo, ['mktree', '-z', '--batch', ...flags], edit.mktreeInput)).split('\n').filter((line) => line !== '');
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
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

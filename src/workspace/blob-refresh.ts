import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { MODE_OFFSET, type IndexLookup } from './index-file.js';
import { editBlobs } from './index-edit.js';
import { runIn, type RepoHandle } from './private-index.js';

const REGULAR = 0o100644;
const EXECUTABLE = 0o100755;

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
 * computed). Returns the paths still to update another way (all of them if the index could not be
 * edited), or the root tree when none is left. `read`: the index as last read, if git wrote none since.
 */
export async function refreshBlobs(repo: RepoHandle, paths: readonly string[], oidBytes: number, read?: IndexLookup): Promise<{ rest: readonly string[]; tree?: string }> {
  if (paths.length === 0) return { rest: [] };
  const out = await runIn(repo, ['hash-object', '-w', '--stdin-paths'], paths.map((path) => `${path}\n`).join(''));
  const oids = out.split('\n').filter((line) => line !== '');
  if (oids.length !== paths.length) throw new Error(`git hash-object gave ${oids.length} ids for ${paths.length} paths`);
  const modes = paths.map((path) => ((lstatSync(join(repo.root, path)).mode & 0o100) !== 0 ? EXECUTABLE : REGULAR));
  const edit = editBlobs(repo.indexFile, oidBytes, paths.map((path, i) => ({ path, oid: oids[i]!, mode: modes[i]! })), read);
  if (edit === undefined) return { rest: paths };
  // mktree writes the trees and names them: any difference from what was computed, and git decides instead.
  const made = (await runIn(repo, ['mktree', '-z', '--batch'], edit.mktreeInput)).split('\n').filter((line) => line !== '');
  if (made.length !== edit.trees.length || made.some((oid, i) => oid !== edit.trees[i])) return { rest: paths };
  edit.commit();
  // Parents come last: the root's tree is the worktree's, as write-tree would name it now.
  return { rest: [], tree: made.at(-1)! };
}

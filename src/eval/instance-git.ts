import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitVerifiedTree } from '../workspace/commit-tree.js';
import { git, GitError } from '../workspace/git.js';

/** A patch that does not apply to the commit it is meant for: the instance cannot be run. */
export class PatchError extends Error {
  override readonly name = 'PatchError';
}

/** A fixed date for the commits eval makes, so the same instance always gets the same commit. */
const EVAL_DATE = new Date(0);

/**
 * The tree of `base` with `patch` applied, written in a private index (the repository's own index
 * and work tree are never touched; no hook or filter runs). An empty patch gives base's tree.
 */
export async function patchedTree(repo: string, base: string, patch: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-eval-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await git(['read-tree', base], { cwd: repo, env });
    if (patch.trim() !== '') {
      try {
        await git(['apply', '--cached', '--whitespace=nowarn', '-'], { cwd: repo, env, input: patch });
      } catch (error) {
        if (error instanceof GitError) throw new PatchError(`the patch does not apply to ${base.slice(0, 12)}: ${error.message}`);
        throw error;
      }
    }
    return (await git(['write-tree'], { cwd: repo, env })).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The commit an instance's fix starts from: `base` with the test change applied, kept under
 * `refs/greenfix-eval-base/<id>` so git keeps it. The gold change is never part of it.
 */
export async function commitWithTests(repo: string, base: string, testPatch: string, id: string): Promise<string> {
  const tree = await patchedTree(repo, base, testPatch);
  const commit = await commitVerifiedTree({ repo, tree, parent: base, message: `eval ${id}: the instance's test change\n`, date: EVAL_DATE });
  await git(['update-ref', `refs/greenfix-eval-base/${id}`, commit], { cwd: repo });
  return commit;
}

/** The change between two commits or trees as a patch (binary included, no rename detection). */
export async function diffOf(repo: string, from: string, to: string, paths: readonly string[] = []): Promise<string> {
  return git(['diff', '--binary', '--full-index', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--', ...paths], { cwd: repo, maxOutputBytes: 64 * 1024 * 1024 });
}

/** The paths that differ between two commits or trees. */
export async function changedPaths(repo: string, from: string, to: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '-z', '--no-renames', from, to], { cwd: repo });
  return out.split('\0').filter(Boolean);
}

/** One file a patch changes: its text before and after (null: absent on that side). */
export interface PatchedFile {
  path: string;
  before: string | null;
  after: string | null;
}

/** What each path changed by `patch` holds before and after it, read from git's objects. */
export async function patchedFiles(repo: string, base: string, patch: string): Promise<PatchedFile[]> {
  const tree = await patchedTree(repo, base, patch);
  const paths = await changedPaths(repo, base, tree);
  const files: PatchedFile[] = [];
  for (const path of paths) files.push({ path, before: await blobAt(repo, base, path), after: await blobAt(repo, tree, path) });
  return files;
}

async function blobAt(repo: string, treeish: string, path: string): Promise<string | null> {
  const kind = await git(['cat-file', '-t', `${treeish}:${path}`], { cwd: repo }).catch(() => 'missing');
  if (kind.trim() !== 'blob') return null;
  return git(['cat-file', 'blob', `${treeish}:${path}`], { cwd: repo, maxOutputBytes: 16 * 1024 * 1024 });
}

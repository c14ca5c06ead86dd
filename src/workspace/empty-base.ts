import { createHash } from 'node:crypto';
import { git } from './git.js';
import { GREENFIX_IDENTITY } from './commit-tree.js';

/**
 * The base of a fix in a repository without commits: a commit of the empty tree, with no parent,
 * greenfix's identity, the epoch as its date and a fixed message, so every call (a resumed run
 * included) names the same object. It is a worktree's base only; the published commit of a fix
 * on it has no parent (`parentOfBase`), so the branch holds one commit: the verified files.
 */
const EMPTY_BASE_MESSAGE = 'greenfix: empty base (the repository had no commits)\n';

function emptyBaseText(emptyTree: string): string {
  const who = `${GREENFIX_IDENTITY.name} <${GREENFIX_IDENTITY.email}> 0 +0000`;
  return `tree ${emptyTree}\nauthor ${who}\ncommitter ${who}\n\n${EMPTY_BASE_MESSAGE}`;
}

async function emptyTree(repo: string, write: boolean): Promise<string> {
  return (await git(['hash-object', '-t', 'tree', ...(write ? ['-w'] : []), '--stdin'], { cwd: repo, input: '' })).trim();
}

/** True when HEAD names a commit (false in a fresh `git init` repository: HEAD is unborn). */
export async function hasCommits(repo: string): Promise<boolean> {
  try {
    await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: repo });
    return true;
  } catch {
    return false;
  }
}

/** Writes (idempotently) the empty base commit into `repo`'s object store and returns its oid. */
export async function writeEmptyBase(repo: string): Promise<string> {
  const tree = await emptyTree(repo, true);
  return (await git(['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: repo, input: emptyBaseText(tree) })).trim();
}

/**
 * The parent a fix's commit gets: the base, or none when the base is the empty base. Computed
 * here, not asked of git (two processes before the first model request): an object's id is the
 * sha1 or sha256 (the base's length says which) of `<type> <size>\0<body>`, as `git hash-object`.
 */
export function parentOfBase(baseCommit: string): string | null {
  const algorithm = baseCommit.length === 64 ? 'sha256' : 'sha1';
  const empty = objectId('commit', emptyBaseText(objectId('tree', '', algorithm)), algorithm);
  return baseCommit === empty ? null : baseCommit;
}

function objectId(type: 'tree' | 'commit', body: string, algorithm: 'sha1' | 'sha256'): string {
  const bytes = Buffer.from(body, 'utf8');
  return createHash(algorithm).update(`${type} ${bytes.length}\0`).update(bytes).digest('hex');
}

import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { git } from './git.js';

/** Git commands on a mirror pin GIT_DIR: a broken mirror must fail, not discover a parent repo. */
export function mirrorGit(gitDir: string, args: string[], input?: string): Promise<string> {
  return git(args, { cwd: gitDir, env: { GIT_DIR: gitDir }, ...(input === undefined ? {} : { input }) });
}

/**
 * Cheap integrity check ("fsck-lite"): git recognises the directory as a repository, and every
 * ref names an object that exists and is readable. A full fsck would read the whole history on
 * every job; this catches what interruptions and disk trouble actually leave behind (a half
 * created repo, a ref to a missing or corrupt object).
 */
export async function isHealthyMirror(gitDir: string): Promise<boolean> {
  try {
    await mirrorGit(gitDir, ['rev-parse', '--git-dir']);
    const oids = (await mirrorGit(gitDir, ['for-each-ref', '--format=%(objectname)'])).trim();
    if (oids === '') return true;
    const types = await mirrorGit(gitDir, ['cat-file', '--batch-check=%(objecttype)'], `${oids}\n`);
    return types.split('\n').filter(Boolean).every((t) => t === 'commit' || t === 'tag');
  } catch {
    return false;
  }
}

/**
 * Creates an empty bare mirror. It is built beside its final path and renamed into place, so an
 * interrupted creation never leaves a half-made repository where the mirror belongs. No remote
 * is configured: the URL is given on each fetch, and no credential is ever written here.
 */
export async function createMirror(gitDir: string): Promise<void> {
  mkdirSync(dirname(gitDir), { recursive: true, mode: 0o711 });
  const staging = join(dirname(gitDir), `.${basename(gitDir)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await git(['init', '--quiet', '--bare', '--', staging], { cwd: dirname(gitDir) });
    // No hooks run in a mirror; reflogs would only keep superseded PR heads alive.
    rmSync(join(staging, 'hooks'), { recursive: true, force: true });
    await mirrorGit(staging, ['config', 'core.logAllRefUpdates', 'false']);
    renameSync(staging, gitDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The mirror at `gitDir`, healthy: kept if it is, otherwise removed and created afresh. */
export async function ensureMirror(gitDir: string): Promise<'kept' | 'created' | 'recreated'> {
  const existed = existsSync(gitDir);
  if (existed && (await isHealthyMirror(gitDir))) return 'kept';
  await recreateMirror(gitDir);
  return existed ? 'recreated' : 'created';
}

/** Replaces whatever is at `gitDir` with an empty mirror (the next fetch brings everything). */
export async function recreateMirror(gitDir: string): Promise<void> {
  rmSync(gitDir, { recursive: true, force: true });
  await createMirror(gitDir);
}

/**
 * Whether every object a checkout of each ref needs (its commit, trees and blobs) is present.
 * It reads the trees a checkout reads anyway; history is not walked.
 */
export async function hasCompleteRefs(gitDir: string, refs: string[]): Promise<boolean> {
  try {
    const out = await mirrorGit(gitDir, ['rev-list', '--objects', '--no-walk', '--missing=print', '--no-object-names', '--end-of-options', ...refs]);
    return !out.split('\n').some((line) => line.startsWith('?'));
  } catch {
    return false;
  }
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/** The installation and webhook secret every app test uses. */
export const INSTALLATION = 42;
export const SECRET = 'test-secret';

/**
 * GitHub's side of a repository for app tests: a bare repository `<dir>/remote/<owner>/<repo>.git`
 * with one commit of `files` on `main`, to be served by the git HTTP test server from `remoteRoot`.
 */
export function seedRemote(dir: string, owner: string, repo: string, files: Record<string, string>): { remoteRoot: string; remote: string } {
  const remoteRoot = join(dir, 'remote');
  const remote = join(remoteRoot, owner, `${repo}.git`);
  const seed = makeRepo(join(dir, 'repo'), files);
  mkdirSync(join(remoteRoot, owner), { recursive: true });
  git(dir, 'clone', '--quiet', '--bare', seed, remote);
  return { remoteRoot, remote };
}

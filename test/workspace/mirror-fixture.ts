import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { git } from '../../src/workspace/git.js';
import { startGitHttpServer, type GitHttpServer, type GitHttpServerOptions } from '../support/git-http-server.js';
import { IDENTITY, rev } from './helpers.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

export const TOKEN = 'ghs_testToken0123456789abcdefABCDEF';

/** An upstream repository served over HTTP, a working clone to make upstream commits, a workdir. */
export interface Upstream {
  server: GitHttpServer;
  /** The bare repository on disk, as the server serves it. */
  bare: string;
  cloneUrl: string;
  workdir: string;
  /** Commits `files` on top of the last upstream commit and pushes it to `ref`; returns the sha. */
  commit(files: Record<string, string | Buffer>, ref?: string): Promise<string>;
}

export async function startUpstream(
  temp: TempDirs,
  extra: Partial<Pick<GitHttpServerOptions, 'beforeRequest'>> = {},
): Promise<Upstream> {
  const root = temp.make('gf-remote-');
  const bare = join(root, 'owner', 'repo.git');
  mkdirSync(bare, { recursive: true });
  await git(['init', '-q', '--bare', '-b', 'main', bare], { cwd: root });
  // A sizeable incompressible blob makes a full fetch visibly bigger than an incremental one.
  const work = makeRepo(temp.make('gf-upstream-'), { 'README.md': 'hello\n', 'big.bin': randomBytes(64 * 1024) });
  await git(['push', '-q', bare, 'HEAD:refs/heads/main'], { cwd: work });
  const server = await startGitHttpServer({ root, token: TOKEN, ...extra });
  return {
    server,
    bare,
    cloneUrl: server.url('owner/repo.git'),
    workdir: temp.make('gf-workdir-'),
    async commit(files, ref = 'refs/heads/main') {
      writeFiles(work, files);
      await git(['add', '-A'], { cwd: work });
      await git([...IDENTITY, 'commit', '-q', '-m', `change ${Object.keys(files).join(',')}`], { cwd: work });
      await git(['push', '-q', '-f', bare, `HEAD:${ref}`], { cwd: work });
      return rev(work, 'HEAD');
    },
  };
}

export { rev };

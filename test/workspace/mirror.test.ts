import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { basicAuthValue } from '../../src/workspace/git-auth.js';
import { mirrorDir, RefNotFoundError, resolveRef, syncMirror } from '../../src/workspace/mirror.js';
import { GitRemoteError } from '../../src/workspace/mirror-remote.js';
import { addWorktree, removeWorktree } from '../../src/workspace/worktree.js';
import { TempDirs } from '../support/temp-dir.js';
import { rev, startUpstream, TOKEN, type Upstream } from './mirror-fixture.js';

const temp = new TempDirs();
let up: Upstream;
/** Runs before the server serves a request: the timeout test holds requests here. */
let beforeRequest: () => Promise<void>;
beforeEach(async () => {
  beforeRequest = async () => undefined;
  up = await startUpstream(temp, { beforeRequest: () => beforeRequest() });
});
afterEach(async () => {
  await up.server.close();
  temp.cleanup();
});

const sync = (refs = ['refs/heads/main'], token = TOKEN) =>
  syncMirror({ workdir: up.workdir, repoId: 42, cloneUrl: up.cloneUrl, token, refs });

const uploadPackBytes = (from: number) =>
  up.server.requests.slice(from).filter((r) => r.path.endsWith('/git-upload-pack')).reduce((n, r) => n + r.bytesOut, 0);

describe('syncMirror', () => {
  it('creates one bare mirror per repository with no remote, and fetches the requested refs', async () => {
    const pr = await up.commit({ 'pr.txt': 'pr\n' }, 'refs/pull/7/head');
    const { gitDir } = await sync(['refs/heads/main', 'refs/pull/7/head']);
    expect(gitDir).toBe(join(up.workdir, 'mirrors', '42.git'));
    expect(gitDir).toBe(mirrorDir(up.workdir, 42));
    expect((await git(['rev-parse', '--is-bare-repository'], { cwd: gitDir })).trim()).toBe('true');
    expect(await resolveRef(gitDir, 'refs/heads/main')).toBe(await rev(up.bare, 'refs/heads/main'));
    expect(await resolveRef(gitDir, 'refs/pull/7/head')).toBe(pr);
    expect(await git(['config', '--list', '--local'], { cwd: gitDir })).not.toMatch(/remote\.|extraheader|url/i);
    expect(existsSync(join(gitDir, 'FETCH_HEAD'))).toBe(false);
    expect(up.server.requests.length).toBeGreaterThan(0);
    expect(up.server.requests.every((r) => r.authorized && r.status === 200)).toBe(true);
    await expect(resolveRef(gitDir, 'refs/heads/nope')).rejects.toBeInstanceOf(RefNotFoundError);
  });

  it('fetches incrementally: a second sync transfers only the new commit', async () => {
    const { gitDir } = await sync();
    const firstBytes = uploadPackBytes(0);
    expect(firstBytes).toBeGreaterThan(64 * 1024);

    const mark = up.server.requests.length;
    const next = await up.commit({ 'small.txt': 'small\n' });
    await sync();
    expect(await resolveRef(gitDir, 'refs/heads/main')).toBe(next);
    expect(uploadPackBytes(mark)).toBeGreaterThan(0);
    expect(uploadPackBytes(mark)).toBeLessThan(4 * 1024);
    const objects = await git(['rev-list', '--objects', `${next}^..${next}`], { cwd: gitDir });
    expect(objects.trim().split('\n')).toHaveLength(3);
  });

  it('a wrong token is a typed auth error that does not contain the token', async () => {
    const wrong = 'ghs_wrongWrongWrong999';
    const error = await sync(['refs/heads/main'], wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitRemoteError);
    expect(error).toMatchObject({ kind: 'auth', status: 401, operation: 'fetch' });
    const text = `${(error as Error).message}\n${(error as GitRemoteError).gitError.stderr}\n${JSON.stringify(error)}`;
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(basicAuthValue(wrong).slice(6));
    expect(up.server.requests.some((r) => !r.authorized)).toBe(true);
  });

  it('a missing repository is not_found; a URL with credentials or another scheme is refused', async () => {
    const opts = { workdir: up.workdir, repoId: 1, token: TOKEN, refs: ['refs/heads/main'] };
    await expect(syncMirror({ ...opts, cloneUrl: up.server.url('owner/none.git') })).rejects.toMatchObject({ kind: 'not_found', status: 404 });
    const withUser = up.cloneUrl.replace('http://', `http://x-access-token:${TOKEN}@`);
    await expect(syncMirror({ ...opts, cloneUrl: withUser })).rejects.toThrow('must not carry credentials');
    await expect(syncMirror({ ...opts, cloneUrl: 'ext::sh -c touch% /tmp/pwned' })).rejects.toBeInstanceOf(TypeError);
    await expect(syncMirror({ ...opts, cloneUrl: up.cloneUrl, refs: ['main'] })).rejects.toThrow('not a full ref name');
    await expect(syncMirror({ ...opts, cloneUrl: up.cloneUrl, refs: ['refs/heads/a:refs/heads/b'] })).rejects.toBeInstanceOf(TypeError);
  });

  it('an unreachable remote and a timeout are transient errors; a timeout keeps the mirror', async () => {
    const { gitDir } = await sync();
    writeFileSync(join(gitDir, 'marker'), 'kept\n');
    let release = () => undefined as void;
    beforeRequest = () => new Promise<void>((resolve) => (release = resolve));
    const timedOut = syncMirror({ workdir: up.workdir, repoId: 42, cloneUrl: up.cloneUrl, token: TOKEN, refs: ['refs/heads/main'], timeoutMs: 500 });
    await expect(timedOut).rejects.toMatchObject({ kind: 'timeout', transient: true });
    expect(existsSync(join(gitDir, 'marker'))).toBe(true);
    release();

    await up.server.close();
    const error = await sync().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unreachable', status: null, transient: true });
  });

  it('a worktree per job works on the bare mirror and shares its objects', async () => {
    const { gitDir } = await sync();
    const sha = await resolveRef(gitDir, 'refs/heads/main');
    const path = join(temp.make(), 'job-1');
    const ws = await addWorktree({ repo: gitDir, path, ref: sha, stateDir: temp.make() });
    expect(ws.baseCommit).toBe(sha);
    expect(readFileSync(join(path, 'README.md'), 'utf8')).toBe('hello\n');
    expect(await ws.treeHash()).toBe(await rev(gitDir, `${sha}^{tree}`));
    expect(ws.gitDir.startsWith(gitDir)).toBe(true);
    await removeWorktree(gitDir, path);
    expect(existsSync(path)).toBe(false);
    expect((await git(['worktree', 'list', '--porcelain'], { cwd: gitDir })).match(/^worktree /gm)).toHaveLength(1);
  });
});

describe('syncMirror recovers a broken mirror', () => {
  const healed = async () => {
    const { gitDir } = await sync();
    expect(await resolveRef(gitDir, 'refs/heads/main')).toBe(await rev(up.bare, 'refs/heads/main'));
    await git(['fsck', '--no-dangling'], { cwd: gitDir });
  };

  it('a half-created mirror directory (interrupted init)', async () => {
    mkdirSync(join(mirrorDir(up.workdir, 42), 'objects'), { recursive: true });
    await healed();
  });

  it('an interrupted first fetch (temporary pack left, no refs)', async () => {
    const { gitDir } = await sync();
    await git(['update-ref', '-d', 'refs/heads/main'], { cwd: gitDir });
    writeFileSync(join(gitDir, 'objects', 'pack', 'tmp_pack_abc123'), 'PACK partial');
    await healed();
  });

  it('a ref pointing at a missing object', async () => {
    const { gitDir } = await sync();
    writeFileSync(join(gitDir, 'refs', 'heads', 'main'), `${'1'.repeat(40)}\n`);
    await healed();
  });

  it('a corrupt object file', async () => {
    const { gitDir } = await sync();
    const sha = await resolveRef(gitDir, 'refs/heads/main');
    await git(['repack', '-q', '-a', '-d'], { cwd: gitDir });
    const packs = (await git(['count-objects', '-v'], { cwd: gitDir })).match(/^packs: (\d+)/m);
    expect(packs?.[1]).toBe('1');
    const packDir = join(gitDir, 'objects', 'pack');
    const file = readdirSync(packDir).find((f) => f.endsWith('.pack'))!;
    writeFileSync(join(packDir, file), 'garbage');
    expect(sha).toHaveLength(40);
    await healed();
  });

  it('damage the health check cannot see (a blob missing under a healthy-looking ref)', async () => {
    const { gitDir } = await sync();
    const blob = await rev(gitDir, 'refs/heads/main:README.md');
    const loose = join(gitDir, 'objects', blob.slice(0, 2), blob.slice(2));
    expect(existsSync(loose)).toBe(true);
    rmSync(loose);
    await up.commit({ 'next.txt': 'next\n' });
    await healed();
  });
});

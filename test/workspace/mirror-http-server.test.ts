import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { basicAuthValue } from '../../src/workspace/git-auth.js';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
let server: GitHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  temp.cleanup();
});

/** Pids of `git http-backend` processes serving `root` (read from /proc: no tool needed). */
function backendsFor(root: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(join('/proc', pid, 'cmdline'), 'utf8') === 'git\0http-backend\0'
          && readFileSync(join('/proc', pid, 'environ'), 'utf8').split('\0').includes(`GIT_PROJECT_ROOT=${root}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function serve(): Promise<{ root: string; srv: GitHttpServer }> {
  const root = temp.make('gf-remote-');
  await git(['init', '-q', '--bare', join(root, 'r.git')], { cwd: root });
  server = await startGitHttpServer({ root, token: 'tok' });
  return { root, srv: server };
}

describe('git http test server', () => {
  it('answers 401 with a Basic challenge without the token, and serves refs with it', async () => {
    const { srv } = await serve();
    const url = `${srv.url('r.git')}/info/refs?service=git-upload-pack`;
    const denied = await fetch(url);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Basic /);
    const ok = await fetch(url, { headers: { Authorization: basicAuthValue('tok') } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(await ok.text()).toContain('# service=git-upload-pack');
    expect(srv.requests.map((r) => [r.authorized, r.status])).toEqual([[false, 401], [true, 200]]);
  });

  it('close() kills a backend still waiting for its request body and leaves nothing running', async () => {
    const { root, srv } = await serve();
    const req = request(`${srv.url('r.git')}/git-upload-pack`, {
      method: 'POST',
      headers: { Authorization: basicAuthValue('tok'), 'Content-Type': 'application/x-git-upload-pack-request' },
    });
    const failed = new Promise<void>((resolve) => req.on('error', () => resolve()));
    req.write('0032want ');
    // The backend is running once the server has recorded the request and spawned it.
    while (backendsFor(root).length === 0) await new Promise((r) => setImmediate(r));
    await srv.close();
    server = undefined;
    await failed;
    expect(backendsFor(root)).toEqual([]);
  });
});

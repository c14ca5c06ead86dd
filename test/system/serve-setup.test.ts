import { afterEach, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { killProcessesUnder, spawnServe, within, type ServeProcess } from './serve-process.js';

/** `greenfix serve` on a new user's first start (setup mode) and on a host whose sandbox cannot start. */
describe('greenfix serve: first start and a broken sandbox', () => {
  let dir: string | undefined;
  let p: ServeProcess | undefined;
  afterEach(async () => {
    p?.kill();
    await p?.exited;
    if (dir) {
      killProcessesUnder(dir);
      cleanup(dir);
    }
    p = undefined;
    dir = undefined;
  });

  /** The setup page's URL, from its stderr line. */
  const setupUrl = (proc: ServeProcess): Promise<string> =>
    new Promise((resolve, reject) => {
      const look = () => {
        const m = /open (http:\/\/\S+?)\/ to register the GitHub App/.exec(proc.stderr());
        if (m?.[1]) resolve(m[1]);
      };
      proc.child.stderr?.on('data', () => setImmediate(look));
      proc.exited.then(() => reject(new Error(`exited before the setup page:\n${proc.stderr()}`)), reject);
    });

  it('no configuration, run as the `greenfix` program: node with its flags, the setup page, /healthz "setup" (200), /metrics; the env file it writes is named; SIGTERM ends it', async () => {
    dir = tempDir('greenfix-serve-setup-');
    mkdirSync(join(dir, 'volume'));
    p = spawnServe({ cwd: dir, asProgram: true, env: { HOME: dir, PORT: '0', HOST: '127.0.0.1', GREENFIX_ENV_FILE: join(dir, 'volume', '.env') } });
    const url = await within(setupUrl(p), 20_000, 'setup page');
    // env -S split the shebang: node itself (the same pid) runs with one V8 helper thread.
    expect(readFileSync(`/proc/${p.child.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([expect.stringMatching(/(^|\/)node$/), '--v8-pool-size=1', 'serve']));
    expect(p.stderr()).toContain(`written to ${join(dir, 'volume', '.env')}`);
    expect(p.stderr()).toMatch(/set up a tunnel first \(WEBHOOK_PROXY_URL/);
    const health = await fetch(`${url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'setup' }]);
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    const page = await fetch(`${url}/probot`);
    expect(page.status).toBe(200);
    await expect(page.text()).resolves.toContain('Register GitHub App');
    p.child.kill('SIGTERM');
    expect(await within(p.exited, 20_000, 'stop')).toEqual({ code: 0, signal: null });
  }, 40_000);

  it('a sandbox that cannot start (a container without the flags): one clear line, exit 2, no stack trace', async () => {
    dir = tempDir('greenfix-serve-nosandbox-');
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // bubblewrap as in a container whose /proc is masked (docker without systempaths=unconfined).
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\necho "bwrap: Can\'t mount proc on /newroot/proc: Operation not permitted" >&2\nexit 1\n');
    chmodSync(join(bin, 'bwrap'), 0o755);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    // The credentials come from the env file, as after the setup page.
    writeFileSync(join(dir, '.env'), `APP_ID=1\nPRIVATE_KEY="${privateKey.replace(/\n/g, '\\n')}"\nWEBHOOK_SECRET=s\n`);
    p = spawnServe({
      cwd: dir,
      env: { HOME: dir, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, PORT: '0', OPENAI_API_KEY: 'sk-test', GREENFIX_WORKDIR: join(dir, 'work') },
    });
    expect(await within(p.exited, 30_000, 'refusal')).toEqual({ code: 2, signal: null });
    const lines = p.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^greenfix: .*Can't mount proc/);
    expect(lines[0]).toContain('--security-opt systempaths=unconfined');
    expect(p.stderr()).not.toMatch(/\n\s+at /);
    expect(p.stdout()).not.toContain('greenfix is running');
  }, 40_000);
});

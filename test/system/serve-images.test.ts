import { afterEach, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable } from '../../src/sandbox/find-executable.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { killProcessesUnder, spawnServe, within, type ServeProcess } from './serve-process.js';

/** `greenfix serve` with an operator's default image on a host that cannot pull it. */
describe('greenfix serve: environment images at startup', () => {
  let dir: string | undefined;
  let p: ServeProcess | undefined;
  afterEach(async () => {
    p?.kill();
    await p?.exited;
    if (dir) {
      killProcessesUnder(dir);
      cleanup(dir);
    }
  });

  it('with GREENFIX_DEFAULT_IMAGE but no skopeo or umoci, and an auth file that is not there: exit 2, each problem named', async () => {
    dir = tempDir('greenfix-serve-images-');
    // Everything greenfix needs on PATH except skopeo and umoci.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['git', 'bash', 'bwrap', 'setpriv', 'sh']) symlinkSync(findExecutable(tool, process.env.PATH) ?? `/usr/bin/${tool}`, join(bin, tool));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    p = spawnServe({
      cwd: dir,
      env: {
        HOME: dir,
        PATH: bin,
        PORT: '0',
        APP_ID: '1',
        PRIVATE_KEY: privateKey,
        WEBHOOK_SECRET: 's',
        OPENAI_API_KEY: 'sk-test',
        GREENFIX_WORKDIR: join(dir, 'work'),
        GREENFIX_DEFAULT_IMAGE: 'python:3.12-slim',
        GREENFIX_REGISTRY_AUTH_FILE: join(dir, 'missing-auth.json'),
      },
    });
    expect(await within(p.exited, 30_000, 'refusal')).toEqual({ code: 2, signal: null });
    const stderr = p.stderr();
    expect(stderr).toContain('greenfix: cannot start:');
    expect(stderr).toContain('skopeo is not installed (needed for pulling environment images (GREENFIX_DEFAULT_IMAGE) from their registry): apt-get install skopeo');
    expect(stderr).toContain('umoci is not installed (needed for unpacking environment images (GREENFIX_DEFAULT_IMAGE)): apt-get install umoci');
    expect(stderr).toContain(`GREENFIX_REGISTRY_AUTH_FILE: ${join(dir, 'missing-auth.json')} cannot be read`);
    expect(p.stdout()).not.toContain('greenfix is running');
  }, 40_000);
});

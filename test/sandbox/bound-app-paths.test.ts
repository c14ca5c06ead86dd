import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { appPathsInBoundDirs, boundDirs } from '../../src/sandbox/bound-app-paths.js';
import { cleanup, tempDir } from '../support/temp-dir.js';

describe('app paths inside directories bound into the sandbox', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) cleanup(dir);
  });

  it('names the app path and the bound directory, also through a symlink and for a path not made yet', () => {
    dir = tempDir('greenfix-bound-');
    const usr = join(dir, 'usr');
    mkdirSync(join(usr, 'local', 'greenfix'), { recursive: true });
    writeFileSync(join(usr, 'local', 'greenfix', '.env'), 'WEBHOOK_SECRET=x\n');
    symlinkSync(join(usr, 'local'), join(dir, 'opt-link'));
    const bound = [usr, '/nonexistent-ro'];
    const problems = appPathsInBoundDirs(
      [
        { name: 'the .env file', path: join(usr, 'local', 'greenfix', '.env') },
        { name: 'GREENFIX_WORKDIR', path: join(dir, 'opt-link', 'greenfix', 'work') },
        { name: 'GREENFIX_DB', path: join(dir, 'elsewhere', 'greenfix.db') },
      ],
      bound,
    );
    expect(problems).toEqual([
      `the .env file ${join(usr, 'local', 'greenfix', '.env')} is inside ${usr}, which is bound read-only into the sandbox (sandboxed commands could read it): move it outside /usr, /bin, /sbin, /lib… and GREENFIX_SANDBOX_RO_PATHS`,
      expect.stringContaining(`GREENFIX_WORKDIR ${join(dir, 'opt-link', 'greenfix', 'work')} is inside ${usr}`),
    ]);
  });

  it('the bound directories are the system ones this host has (symlinks resolved) and the extra read-only paths', () => {
    const bound = boundDirs(['/opt/tools'], [{ path: '/usr', kind: 'dir' }, { path: '/bin', kind: 'symlink', target: 'usr/bin' }]);
    expect(bound).toContain('/usr');
    expect(bound).toContain('/opt/tools');
    expect(appPathsInBoundDirs([{ name: 'GREENFIX_WORKDIR', path: '/usr/local/greenfix' }], boundDirs([]))).toHaveLength(1);
    expect(appPathsInBoundDirs([{ name: 'GREENFIX_WORKDIR', path: '/var/lib/greenfix' }], boundDirs([]))).toEqual([]);
  });
});

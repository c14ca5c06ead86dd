import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxRequestError } from '../../src/sandbox/errors.js';
import { imageRootEntries } from '../../src/sandbox/image-root.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

/** A root like a Debian image's: /usr, /var/lib, /etc/passwd, the merged-usr /bin link, its own /proc, /dev and /tmp. */
function debianLikeRoot(): string {
  const root = temp.make('gf-image-root-');
  for (const dir of ['usr/bin', 'var/lib/apt', 'var/cache', 'etc', 'proc', 'dev', 'tmp', 'run/lock']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0::/root:/bin/sh\n');
  symlinkSync('usr/bin', join(root, 'bin'));
  return root;
}

describe('an image root as the sandbox\'s /', () => {
  it('binds the top-level entries whole where no mount lands, recreates links, and never shows the image\'s /proc, /dev, /tmp', () => {
    const root = debianLikeRoot();
    const entries = imageRootEntries(root, [{ path: '/work/jobs/1/worktree', kind: 'dir' }, { path: '/etc/passwd', kind: 'file' }]);
    expect(entries).toEqual([
      { path: '/bin', kind: 'symlink', target: 'usr/bin' },
      { path: '/etc', kind: 'dir', source: join(root, 'etc') },
      { path: '/run', kind: 'dir', source: join(root, 'run') },
      { path: '/usr', kind: 'dir', source: join(root, 'usr') },
      { path: '/var', kind: 'dir', source: join(root, 'var') },
    ]);
  });

  it('makes the directories a mount needs in the sandbox\'s own root (the Docker workdir under /var/lib), binding their other children', () => {
    const root = debianLikeRoot();
    const entries = imageRootEntries(root, [{ path: '/var/lib/greenfix/work/jobs/1/worktree', kind: 'dir' }, { path: '/run/greenfix-egress', kind: 'dir' }]);
    expect(entries.filter((e) => e.path.startsWith('/var') || e.path.startsWith('/run'))).toEqual([
      { path: '/run', kind: 'mkdir' },
      { path: '/run/lock', kind: 'dir', source: join(root, 'run/lock') },
      { path: '/var', kind: 'mkdir' },
      { path: '/var/cache', kind: 'dir', source: join(root, 'var/cache') },
      { path: '/var/lib', kind: 'mkdir' },
      { path: '/var/lib/apt', kind: 'dir', source: join(root, 'var/lib/apt') },
    ]);
  });

  it('refuses a symlink on the way to a mount point: the mount would follow it out of the image', () => {
    const root = debianLikeRoot();
    symlinkSync('/', join(root, 'srv'));
    expect(() => imageRootEntries(root, [{ path: '/srv/jobs/1/worktree', kind: 'dir' }])).toThrow(SandboxRequestError);
    expect(() => imageRootEntries(root, [{ path: '/srv/jobs/1/worktree', kind: 'dir' }])).toThrow(/the environment image's \/srv is a symlink, and the sandbox must mount \/srv\/jobs\/1\/worktree below it/);
  });
});

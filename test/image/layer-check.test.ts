import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ImageError } from '../../src/image/image-error.js';
import { checkLayer } from '../../src/image/layer-check.js';
import { tarOf, type LayerEntry } from '../support/oci-image.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const GZIP = 'application/vnd.oci.image.layer.v1.tar+gzip';

async function check(entries: readonly LayerEntry[], transform = (tar: Buffer) => gzipSync(tar)): Promise<ImageError | null> {
  const file = join(temp.make('gf-layer-'), 'layer');
  writeFileSync(file, transform(tarOf(entries)));
  return checkLayer(file, GZIP, 'layer 1').then(
    () => null,
    (error: unknown) => {
      if (error instanceof ImageError) return error;
      throw error;
    },
  );
}

describe('the layer check (before umoci writes anything)', () => {
  it('accepts an ordinary layer: files, dirs, relative and absolute symlinks inside the root, whiteouts', async () => {
    const refused = await check([
      { path: 'usr/', kind: 'dir' },
      { path: 'usr/bin/', kind: 'dir' },
      { path: 'usr/bin/tool', kind: 'file', content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      { path: 'usr/bin/alias', kind: 'symlink', target: 'tool' },
      { path: 'lib64/ld.so', kind: 'symlink', target: '/usr/lib/ld.so' },
      { path: 'usr/bin/twin', kind: 'hardlink', target: 'usr/bin/tool' },
      { path: 'etc/.wh.old', kind: 'file', content: '' },
    ]);
    expect(refused).toBeNull();
  });

  it.each<[string, LayerEntry, RegExp]>([
    ['a symlink climbing out of the root', { path: 'etc/shadow-link', kind: 'symlink', target: '../../../etc/shadow' }, /etc\/shadow-link: a symlink to \.\.\/\.\.\/\.\.\/etc\/shadow, which escapes/],
    ['a character device', { path: 'dev-mem', kind: 'char-device' }, /dev-mem: a device node/],
    ['a path climbing out of the root', { path: 'usr/../../escape', kind: 'file', content: 'x' }, /usr\/\.\.\/\.\.\/escape: a path outside the image's root/],
    ['an absolute path', { path: '/etc/cron.d/evil', kind: 'file', content: 'x' }, /\/etc\/cron\.d\/evil: an absolute path/],
    ['a hard link to a host path', { path: 'shadow', kind: 'hardlink', target: '/etc/shadow' }, /shadow: a hard link to \/etc\/shadow, outside/],
  ])('refuses %s, naming the entry', async (_what, entry, message) => {
    const refused = await check([{ path: 'ok', kind: 'file', content: 'fine' }, entry]);
    expect(refused?.reason).toBe('unsafe-layer');
    expect(refused?.message).toMatch(/^layer 1 is refused: /);
    expect(refused?.message).toMatch(message);
  });

  it('calls a corrupt archive corrupt, not unsafe', async () => {
    const refused = await check([{ path: 'a', kind: 'file', content: 'x'.repeat(2000) }], (tar) => {
      const broken = Buffer.from(tar);
      broken[20] = 0x41; // inside the first header: the checksum no longer matches
      return gzipSync(broken);
    });
    expect(refused?.reason).toBe('unpack-failed');
    expect(refused?.message).toMatch(/checksum/);
  });

  it('refuses a layer format it cannot read, saying how to push one it can', async () => {
    const file = join(temp.make('gf-layer-'), 'layer');
    writeFileSync(file, 'zstd bytes');
    await expect(checkLayer(file, 'application/vnd.oci.image.layer.v1.tar+zstd', 'layer 2')).rejects.toThrow(/tar\+zstd, which greenfix cannot unpack: push the image with gzip layers/);
  });
});

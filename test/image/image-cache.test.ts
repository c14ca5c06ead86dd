import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createImageCache } from '../../src/image/image-cache.js';
import { ImageError } from '../../src/image/image-error.js';
import { ANONYMOUS } from '../../src/image/registry-access.js';
import { REGISTRY_PASSWORD, REGISTRY_USER, startRegistry, type RegistryServer } from '../support/registry-server.js';
import { TempDirs } from '../support/temp-dir.js';
import { IMAGE_TOOL, pushImage, toolImageLayer } from '../support/test-images.js';

const temp = new TempDirs();
const tools = { skopeo: '/usr/bin/skopeo', umoci: '/usr/bin/umoci' };
let open: RegistryServer;
let locked: RegistryServer;

beforeAll(async () => {
  [open, locked] = await Promise.all([startRegistry(), startRegistry({ auth: true })]);
});
afterAll(async () => {
  await Promise.all([open?.stop(), locked?.stop()]);
  temp.cleanup();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => {
      if (error instanceof ImageError) return error;
      throw error;
    },
  );

describe('the image cache, against a real registry on loopback', () => {
  it('pins the reference to the digest the registry serves, unpacks it once, and reuses it', async () => {
    const reference = pushImage(open.host, 'envs/tool', [toolImageLayer()]);
    const dir = join(temp.make('gf-images-'), 'images');
    const cache = createImageCache({ dir, capBytes: 1024 ** 3, tools, access: ANONYMOUS });
    const first = await cache.prepare(reference);
    expect(first.digest).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(first.pulled).toBe(true);
    expect(first.rootfs).toBe(join(dir, first.digest.slice(7), 'rootfs'));
    expect(readFileSync(join(first.rootfs, 'usr/local/bin', IMAGE_TOOL), 'utf8')).toMatch(/answer\.txt/);
    // The registry's own answer for the same tag is the pinned digest.
    const served = await fetch(`http://${open.host}/v2/envs/tool/manifests/v1`, { method: 'HEAD', headers: { Accept: 'application/vnd.oci.image.manifest.v1+json' } });
    expect(served.headers.get('docker-content-digest')).toBe(first.digest);
    const second = await cache.prepare(`${open.host}/envs/tool@${first.digest}`);
    expect(second).toMatchObject({ digest: first.digest, rootfs: first.rootfs, pulled: false });
    // A digest unpacked here needs no registry at all (nothing listens on port 9 of loopback).
    const offline = await cache.prepare(`127.0.0.1:9/envs/tool@${first.digest}`);
    expect(offline).toMatchObject({ digest: first.digest, rootfs: first.rootfs, pulled: false });
    offline.release();
    first.release();
    second.release();
    expect(readdirSync(dir).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('applies whiteouts and clears setuid bits', async () => {
    const reference = pushImage(open.host, 'envs/layers', [
      [
        { path: 'etc/', kind: 'dir' },
        { path: 'etc/gone', kind: 'file', content: 'deleted by the next layer' },
        { path: 'etc/kept', kind: 'file', content: 'kept' },
        { path: 'etc/su', kind: 'file', content: '#!/bin/sh\n', mode: 0o4755 },
      ],
      [
        { path: 'etc/', kind: 'dir' },
        { path: 'etc/.wh.gone', kind: 'file', content: '' },
      ],
    ]);
    const cache = createImageCache({ dir: join(temp.make('gf-images-'), 'images'), capBytes: 1024 ** 3, tools, access: ANONYMOUS });
    const image = await cache.prepare(reference);
    expect(existsSync(join(image.rootfs, 'etc/gone'))).toBe(false);
    expect(readFileSync(join(image.rootfs, 'etc/kept'), 'utf8')).toBe('kept');
    expect(statSync(join(image.rootfs, 'etc/su')).mode & 0o7777).toBe(0o755);
    image.release();
  });

  it.each([
    ['an escaping symlink', { path: 'etc/passwd-link', kind: 'symlink' as const, target: '../../../../etc/shadow' }, /etc\/passwd-link: a symlink to \.\.\/\.\.\/\.\.\/\.\.\/etc\/shadow, which escapes the image's root/],
    ['a device node', { path: 'dev-kmem', kind: 'char-device' as const }, /dev-kmem: a device node/],
  ])('refuses an image with %s, says which layer and entry, and keeps nothing', async (_what, entry, message) => {
    const reference = pushImage(open.host, 'envs/evil', [toolImageLayer(), [{ path: 'etc/', kind: 'dir' }, entry]]);
    const dir = join(temp.make('gf-images-'), 'images');
    const cache = createImageCache({ dir, capBytes: 1024 ** 3, tools, access: ANONYMOUS });
    const refused = await failure(cache.prepare(reference));
    expect(refused?.reason).toBe('unsafe-layer');
    expect(refused?.message).toMatch(/^layer 2 of 2 \(sha256:[a-f0-9]{12}\) is refused: /);
    expect(refused?.message).toMatch(message);
    expect(readdirSync(dir).filter((name) => name !== '.home')).toEqual([]);
  });

  it('pulls from a registry that requires credentials only with the operator\'s, and says how to give them', async () => {
    const reference = pushImage(locked.host, 'private/env', [toolImageLayer()], `${REGISTRY_USER}:${REGISTRY_PASSWORD}`);
    const dir = join(temp.make('gf-images-'), 'images');
    const anonymous = await failure(createImageCache({ dir, capBytes: 1024 ** 3, tools, access: ANONYMOUS }).prepare(reference));
    expect(anonymous?.reason).toBe('pull-failed');
    expect(anonymous?.message).toContain(`could not pull ${reference} from ${locked.host}`);
    expect(anonymous?.message).toContain(`credentials for ${locked.host} in the operator's GREENFIX_REGISTRY_AUTH_FILE`);

    const authFile = join(temp.make('gf-auth-'), 'auth.json');
    const auth = Buffer.from(`${REGISTRY_USER}:${REGISTRY_PASSWORD}`).toString('base64');
    writeFileSync(authFile, JSON.stringify({ auths: { [locked.host]: { auth } } }), { mode: 0o600 });
    const image = await createImageCache({ dir, capBytes: 1024 ** 3, tools, access: { authFile, insecureRegistries: [] } }).prepare(reference);
    expect(existsSync(join(image.rootfs, 'usr/local/bin', IMAGE_TOOL))).toBe(true);
    image.release();
  });

  it('evicts the least recently used image over the cap, never one a job holds', async () => {
    const a = pushImage(open.host, 'envs/a', [[{ path: 'a', kind: 'file', content: 'a'.repeat(200_000) }]]);
    const b = pushImage(open.host, 'envs/b', [[{ path: 'b', kind: 'file', content: 'b'.repeat(200_000) }]]);
    const c = pushImage(open.host, 'envs/c', [[{ path: 'c', kind: 'file', content: 'c'.repeat(200_000) }]]);
    const cache = createImageCache({ dir: join(temp.make('gf-images-'), 'images'), capBytes: 450_000, tools, access: ANONYMOUS });
    const held = await cache.prepare(a);
    const idle = await cache.prepare(b);
    idle.release();
    const newest = await cache.prepare(c);
    expect(existsSync(held.rootfs)).toBe(true);
    expect(existsSync(idle.rootfs)).toBe(false);
    expect(existsSync(newest.rootfs)).toBe(true);
    held.release();
    newest.release();
  });

  it('follows a moved tag, but a pinned digest (a resumed job\'s) keeps the image its first attempt ran on', async () => {
    const cache = createImageCache({ dir: join(temp.make('gf-images-'), 'images'), capBytes: 1024 ** 3, tools, access: ANONYMOUS });
    const reference = pushImage(open.host, 'envs/moving', [[{ path: 'version', kind: 'file', content: 'one' }]]);
    const first = await cache.prepare(reference);
    pushImage(open.host, 'envs/moving', [[{ path: 'version', kind: 'file', content: 'two' }]]);
    const moved = await cache.prepare(reference);
    const pinned = await cache.prepare(reference, undefined, first.digest);
    expect(moved.digest).not.toBe(first.digest);
    expect(readFileSync(join(moved.rootfs, 'version'), 'utf8')).toBe('two');
    expect(pinned).toMatchObject({ reference, digest: first.digest, pulled: false });
    expect(readFileSync(join(pinned.rootfs, 'version'), 'utf8')).toBe('one');
    for (const image of [first, moved, pinned]) image.release();
  });

  it('refuses a reference that is not one before asking any registry', async () => {
    const cache = createImageCache({ dir: join(temp.make('gf-images-'), 'images'), capBytes: 1024 ** 3, tools, access: ANONYMOUS });
    const refused = await failure(cache.prepare('Not An Image!'));
    expect(refused?.reason).toBe('bad-reference');
    expect(refused?.message).toContain('is not an image reference');
  });
});

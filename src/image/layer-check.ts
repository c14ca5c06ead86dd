import { createReadStream } from 'node:fs';
import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ImageError } from './image-error.js';
import { tarHeaders, type TarHeader } from './tar-headers.js';

/** Layer media types greenfix reads (OCI and Docker schema 2), and whether they are gzipped. */
const LAYER_TYPES: Record<string, 'gzip' | 'tar'> = {
  'application/vnd.oci.image.layer.v1.tar': 'tar',
  'application/vnd.oci.image.layer.v1.tar+gzip': 'gzip',
  'application/vnd.docker.image.rootfs.diff.tar.gzip': 'gzip',
  'application/vnd.docker.image.rootfs.diff.tar': 'tar',
};

/**
 * What makes an entry unsafe to unpack, or null. Checked on the layer's own headers, before umoci
 * writes anything: a path that is absolute or climbs out of the root, a hard link to one, a
 * symlink whose relative target climbs above the root, a character or block device.
 * Absolute symlink targets are kept (Debian's own `/lib64/ld-linux-x86-64.so.2` is one): the root
 * is `/` inside the sandbox, so they resolve inside the image, and the host never follows a link
 * in the cache (docs/decisions.md). Setuid and setgid bits are cleared after the unpack (rootfs-check.ts).
 */
export function entryProblem(header: TarHeader): string | null {
  const path = header.path.replace(/^(\.\/)+/, '');
  if (path.startsWith('/')) return `${header.path}: an absolute path`;
  if (climbs(path)) return `${header.path}: a path outside the image's root`;
  if (header.type === '3' || header.type === '4') return `${header.path}: a device node`;
  if (header.type === '1' && (header.linkTarget.startsWith('/') || climbs(header.linkTarget.replace(/^(\.\/)+/, '')))) {
    return `${header.path}: a hard link to ${header.linkTarget}, outside the image's root`;
  }
  if (header.type === '2' && !header.linkTarget.startsWith('/') && climbs(posix.join(posix.dirname(path), header.linkTarget))) {
    return `${header.path}: a symlink to ${header.linkTarget}, which escapes the image's root`;
  }
  return null;
}

/** Whether a relative path, resolved lexically from the root, goes above it. */
function climbs(relative: string): boolean {
  let depth = 0;
  for (const part of relative.split('/')) {
    if (part === '..') depth -= 1;
    else if (part !== '' && part !== '.') depth += 1;
    if (depth < 0) return true;
  }
  return false;
}

/**
 * Reads one layer blob (compressed as its media type says) and throws ImageError('unsafe-layer')
 * at its first unsafe entry, or ImageError('unpack-failed') when it is not a readable archive.
 */
export async function checkLayer(file: string, mediaType: string, what: string): Promise<void> {
  const format = LAYER_TYPES[mediaType];
  if (!format) {
    throw new ImageError('unpack-failed', `${what} has media type ${mediaType}, which greenfix cannot unpack: push the image with gzip layers`);
  }
  const source = createReadStream(file);
  const tar = new PassThrough();
  const piped = format === 'gzip' ? pipeline(source, createGunzip(), tar) : pipeline(source, tar);
  try {
    for await (const header of tarHeaders(tar)) {
      const problem = entryProblem(header);
      if (problem) throw new ImageError('unsafe-layer', `${what} is refused: ${problem}`);
    }
    await piped;
  } catch (error) {
    source.destroy();
    tar.destroy();
    await piped.catch(() => undefined);
    if (error instanceof ImageError) throw error;
    throw new ImageError('unpack-failed', `${what} is not a readable layer: ${(error as Error).message}`);
  }
}

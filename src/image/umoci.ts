import { execFile } from 'node:child_process';
import { ImageError } from './image-error.js';

/** Unpacking a few GB of layers; a failure bound, not a pace. */
const UNPACK_LIMIT_MS = 15 * 60_000;

/**
 * `umoci raw unpack --rootless`: the layers of `layout:tag`, in order, with whiteouts applied, into
 * `rootfs` (which must not exist), owned by the current user and never chowned to the image's ids.
 */
export function unpackLayout(umoci: string, layout: string, tag: string, rootfs: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      umoci,
      ['raw', 'unpack', '--rootless', '--image', `${layout}:${tag}`, rootfs],
      { timeout: UNPACK_LIMIT_MS, maxBuffer: 4 * 1024 * 1024, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, ...(signal ? { signal } : {}) },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const said = stderr.trim().split('\n').filter(Boolean).pop() ?? error.message;
        reject(new ImageError('unpack-failed', `umoci could not unpack the image: ${said}`));
      },
    );
  });
}

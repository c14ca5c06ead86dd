import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createImageCache } from '../src/image/image-cache.js';
import { findImageTools } from '../src/image/image-tools.js';
import { ANONYMOUS } from '../src/image/registry-access.js';
import { sandboxFileOwner } from '../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../src/sandbox/prepare-workspace-ownership.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { startRegistry } from '../test/support/registry-server.js';
import { pushImage, toolImageLayer } from '../test/support/test-images.js';

export interface ImageStartBench {
  /** The image's size as pushed (its layers, uncompressed). */
  imageBytes: number;
  /** `prepare` of an image not yet cached: resolve, pull, check, unpack. */
  firstPullMs: number;
  /** A job's start with the image cached: resolve the digest, lease, forJob, first command (`true`). */
  imageStartMs: number;
  /** The same start on the host's userland: forJob, first command. */
  hostStartMs: number;
  starts: number;
}

/**
 * An environment image of ~`megabytes` MB (the test image's userland plus incompressible filler)
 * in a registry on loopback: its first pull+unpack, then `starts` job starts with it cached
 * against as many on the host's userland, interleaved so load hits both alike.
 */
export async function benchImageStart(options: { sandbox: Sandbox; megabytes: number; starts: number }): Promise<ImageStartBench> {
  const found = findImageTools(process.env.PATH);
  if ('missing' in found) throw new Error(`image bench: ${found.missing.join(', ')} not installed`);
  const registry = await startRegistry();
  const dir = mkdtempSync(join(tmpdir(), 'gf-bench-image-'));
  chmodSync(dir, 0o711);
  try {
    const filler = randomBytes(options.megabytes * 1024 * 1024);
    const userland = toolImageLayer();
    const reference = pushImage(registry.host, 'bench/env', [userland, [{ path: 'opt/', kind: 'dir' }, { path: 'opt/filler', kind: 'file', content: filler }]]);
    const cache = createImageCache({ dir: join(dir, 'images'), capBytes: 16 * 1024 ** 3, tools: found, access: ANONYMOUS });
    let started = performance.now();
    const first = await cache.prepare(reference);
    const firstPullMs = performance.now() - started;
    first.release();
    const owner = sandboxFileOwner();
    const workspace = mkdtempSync(join(dir, 'ws-'));
    chmodSync(workspace, 0o755);
    await prepareWorkspaceOwnership(workspace, owner);
    const total = { image: 0, host: 0 };
    for (let i = 0; i < options.starts; i += 1) {
      for (const variant of ['image', 'host'] as const) {
        started = performance.now();
        const image = variant === 'image' ? await cache.prepare(reference) : null;
        const job = await options.sandbox.forJob({ workspace, image });
        const r = await job.run({ command: 'true', workspace, timeoutMs: 10_000 });
        total[variant] += performance.now() - started;
        await job.release();
        image?.release();
        if (r.exitCode !== 0) throw new Error(`image bench: ${variant} start failed: ${r.stderr}`);
      }
    }
    const userlandBytes = userland.reduce((sum, e) => sum + (e.kind === 'file' ? Buffer.byteLength(e.content) : 0), 0);
    return { imageBytes: userlandBytes + filler.length, firstPullMs, imageStartMs: total.image / options.starts, hostStartMs: total.host / options.starts, starts: options.starts };
  } finally {
    await registry.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync, renameSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive, processStartTime } from '../sandbox/process-alive.js';
import { ImageError } from './image-error.js';
import { parseImageReference } from './image-reference.js';
import { IMAGE_TOOLS_HINT, type ImageTools } from './image-tools.js';
import { checkLayer } from './layer-check.js';
import type { RegistryAccess } from './registry-access.js';
import { checkRootfs } from './rootfs-check.js';
import { copyToLayout, resolveDigest } from './skopeo.js';
import { unpackLayout } from './umoci.js';

export interface ImageCacheOptions {
  /** `<workdir>/images`: host-owned; the sandbox uid may only pass through to the roots. */
  dir: string;
  /** Size cap of all unpacked roots; the least recently used go first (never one a job holds). */
  capBytes: number;
  /** Null: not installed; a job that names an image then fails with IMAGE_TOOLS_HINT. */
  tools: ImageTools | null;
  access: RegistryAccess;
}

/** An image unpacked in the cache and held for one job until `release`. */
export interface PreparedImage {
  /** As the repository or operator wrote it. */
  reference: string;
  /** `sha256:…` of the manifest pulled: what the evidence names and the caches are keyed by. */
  digest: string;
  /** The unpacked root filesystem (read-only `/` of the job's sandbox). */
  rootfs: string;
  /** Whether this call pulled and unpacked it (false: it was cached). */
  pulled: boolean;
  release(): void;
}

export interface ImageCache {
  /** `digest`: the one a first attempt pinned (a resumed job); absent: whatever the reference names now. */
  prepare(reference: string, signal?: AbortSignal, digest?: string): Promise<PreparedImage>;
}

interface Meta {
  reference: string;
  digest: string;
  bytes: number;
}

const TAG = 'greenfix';

/** A deployment without images: a repository that names one is told so, nothing is pulled. */
export const NO_IMAGES: ImageCache = {
  prepare: async (reference) => {
    throw new ImageError('tools-missing', `this greenfix is not set up for environment images, and the repository names ${reference}: ${IMAGE_TOOLS_HINT}`);
  },
};

/**
 * Environment images, once per digest: `<dir>/<sha256 hex>/{rootfs/, meta.json, leases/}`. A
 * reference is resolved to a digest first (skopeo), so a moved tag pulls again and a job always
 * runs on the digest it reports. A new image is copied into `.tmp-*` as an OCI layout, every layer
 * checked (layer-check.ts) before umoci unpacks it, the root walked again (rootfs-check.ts), then
 * renamed into place: an entry is complete or absent. Last use = the entry directory's mtime;
 * a job holds its entry with a lease file naming its process, so eviction never removes a root
 * under a running job.
 */
export function createImageCache(options: ImageCacheOptions): ImageCache {
  const { dir } = options;
  let sequence = 0;

  const lease = (entry: string): (() => void) => {
    sequence += 1;
    const file = join(entry, 'leases', `${process.pid}-${processStartTime(process.pid) ?? 0}-${sequence}`);
    writeFileSync(file, '');
    return () => rmSync(file, { force: true });
  };

  const prepare = async (text: string, signal?: AbortSignal, pinned?: string): Promise<PreparedImage> => {
    const named = parseImageReference(text);
    const ref = pinned ? { ...named, digest: pinned } : named;
    const tools = options.tools;
    if (!tools) throw new ImageError('tools-missing', `${ref.text} cannot be pulled on this host: ${IMAGE_TOOLS_HINT}`);
    mkdirSync(dir, { recursive: true, mode: 0o711 });
    chmodSync(dir, 0o711);
    const home = join(dir, '.home');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const context = { skopeo: tools.skopeo, home, access: options.access, ...(signal ? { signal } : {}) };
    sweepAbandoned(dir);
    // A digest already unpacked here needs no registry: content-addressed, checked when it was pulled.
    const known = ref.digest && isComplete(join(dir, ref.digest.replace(/^sha256:/, ''))) ? ref.digest : null;
    const digest = known ?? (await resolveDigest(ref, context));
    const entry = join(dir, digest.replace(/^sha256:/, ''));
    let pulled = false;
    if (!isComplete(entry)) {
      const tmp = join(dir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
      mkdirSync(join(tmp, 'leases'), { recursive: true, mode: 0o711 });
      try {
        await copyToLayout(ref, digest, join(tmp, 'layout'), TAG, context);
        await checkLayers(join(tmp, 'layout'));
        await unpackLayout(tools.umoci, join(tmp, 'layout'), TAG, join(tmp, 'rootfs'), signal);
        const bytes = await checkRootfs(join(tmp, 'rootfs'));
        rmSync(join(tmp, 'layout'), { recursive: true, force: true });
        writeFileSync(join(tmp, 'meta.json'), JSON.stringify({ reference: ref.text, digest, bytes } satisfies Meta));
        chmodSync(tmp, 0o711);
        chmodSync(join(tmp, 'rootfs'), 0o755);
        try {
          renameSync(tmp, entry);
          pulled = true;
        } catch {
          // Another job unpacked the same digest first: theirs is as good.
        }
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    const release = lease(entry);
    const now = new Date();
    utimesSync(entry, now, now);
    if (pulled) evict(dir, options.capBytes, entry);
    return { reference: named.text, digest, rootfs: join(entry, 'rootfs'), pulled, release };
  };

  return { prepare };
}

/** `.tmp-<pid>-*` of a process that died mid-pull (killed, crashed): nothing will finish or remove it. */
function sweepAbandoned(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^\.tmp-(\d+)-/.exec(name)?.[1];
    if (pid && !isProcessAlive(Number(pid))) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

function isComplete(entry: string): boolean {
  try {
    return statSync(join(entry, 'meta.json')).isFile();
  } catch {
    return false;
  }
}

/** Every layer of the layout's one image, checked before anything is unpacked. */
async function checkLayers(layout: string): Promise<void> {
  const blob = (digest: string) => join(layout, 'blobs', ...digest.split(':'));
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as { manifests: Array<{ digest: string }> };
  const first = index.manifests[0];
  if (!first) throw new ImageError('unpack-failed', 'the pulled image has no manifest');
  const manifest = JSON.parse(readFileSync(blob(first.digest), 'utf8')) as { layers?: Array<{ digest: string; mediaType: string }> };
  const layers = manifest.layers ?? [];
  for (const [i, layer] of layers.entries()) await checkLayer(blob(layer.digest), layer.mediaType, `layer ${i + 1} of ${layers.length} (${layer.digest.slice(0, 19)})`);
}

/** Removes the least recently used complete entries, held by no live process, until the rest fit under the cap. */
function evict(dir: string, capBytes: number, keep: string): void {
  const entries = readdirSync(dir)
    .filter((name) => /^[a-f0-9]{64}$/.test(name))
    .map((name) => join(dir, name))
    .filter(isComplete)
    .map((path) => ({ path, used: statSync(path).mtimeMs, bytes: metaBytes(path) }))
    .sort((a, b) => a.used - b.used);
  let total = entries.reduce((sum, e) => sum + e.bytes, 0);
  for (const e of entries) {
    if (total <= capBytes) break;
    if (e.path === keep || isHeld(e.path)) continue;
    // meta.json first: a half-removed entry is never taken for a complete one.
    unlinkSync(join(e.path, 'meta.json'));
    rmSync(e.path, { recursive: true, force: true });
    total -= e.bytes;
  }
}

function metaBytes(entry: string): number {
  try {
    return (JSON.parse(readFileSync(join(entry, 'meta.json'), 'utf8')) as Meta).bytes;
  } catch {
    return 0;
  }
}

function isHeld(entry: string): boolean {
  let names: string[];
  try {
    names = readdirSync(join(entry, 'leases'));
  } catch {
    return false;
  }
  return names.some((name) => {
    const [pid, start] = name.split('-').map(Number);
    if (pid === undefined || !Number.isFinite(pid)) return false;
    if (isProcessAlive(pid, start || undefined)) return true;
    rmSync(join(entry, 'leases', name), { force: true });
    return false;
  });
}

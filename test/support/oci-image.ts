import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of a layer the tests write by hand (so they can write what no tool would: a device, an escaping link). */
export type LayerEntry =
  | { path: string; kind: 'file'; content: Buffer | string; mode?: number }
  | { path: string; kind: 'dir'; mode?: number }
  | { path: string; kind: 'symlink' | 'hardlink'; target: string }
  | { path: string; kind: 'char-device' };

const TYPE = { file: '0', hardlink: '1', symlink: '2', 'char-device': '3', dir: '5' } as const;

/** A ustar archive of `entries` (names up to 100 bytes: enough for test images). */
export function tarOf(entries: readonly LayerEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const content = entry.kind === 'file' ? Buffer.from(entry.content) : Buffer.alloc(0);
    const header = Buffer.alloc(512);
    const put = (offset: number, length: number, value: string) => header.write(value.slice(0, length), offset, length, 'utf8');
    const num = (offset: number, length: number, value: number) => put(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
    put(0, 100, entry.path);
    const mode = 'mode' in entry && entry.mode !== undefined ? entry.mode : entry.kind === 'dir' ? 0o755 : entry.kind === 'file' ? 0o644 : 0o777;
    num(100, 8, mode);
    num(108, 8, 0);
    num(116, 8, 0);
    num(124, 12, content.length);
    num(136, 12, 1_700_000_000);
    header.write('        ', 148, 8, 'latin1');
    header.write(TYPE[entry.kind], 156, 1, 'latin1');
    if (entry.kind === 'symlink' || entry.kind === 'hardlink') put(157, 100, entry.target);
    header.write('ustar\u000000', 257, 8, 'latin1');
    if (entry.kind === 'char-device') {
      num(329, 8, 1);
      num(337, 8, 3);
    }
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
    blocks.push(header, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Writes an OCI image layout at `dir` with one image tagged `tag`: the layers in order (gzipped),
 * a config for linux on this host's architecture, a manifest and index.json. `skopeo copy
 * oci:DIR:TAG docker://…` pushes it to a registry.
 */
export function writeOciLayout(dir: string, tag: string, layers: readonly (readonly LayerEntry[])[]): void {
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  const blob = (data: Buffer) => {
    const digest = sha(data);
    writeFileSync(join(dir, 'blobs', 'sha256', digest), data);
    return { digest: `sha256:${digest}`, size: data.length };
  };
  const tars = layers.map((entries) => tarOf(entries));
  const layerBlobs = tars.map((tar) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...blob(gzipSync(tar)) }));
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const config = blob(
    Buffer.from(
      JSON.stringify({
        architecture: arch,
        os: 'linux',
        config: {},
        rootfs: { type: 'layers', diff_ids: tars.map((tar) => `sha256:${sha(tar)}`) },
      }),
    ),
  );
  const manifest = blob(
    Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config }, layers: layerBlobs })),
  );
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'org.opencontainers.image.ref.name': tag } }],
    }),
  );
}

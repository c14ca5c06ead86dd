import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { SystemEntry } from './bwrap-args.js';
import { SandboxRequestError } from './errors.js';

/** Where bwrap mounts something inside the sandbox (the workspace, /etc/passwd…), and what it mounts there. */
export interface MountDestination {
  path: string;
  kind: 'dir' | 'file';
}

/** Made fresh by bwrap in every sandbox (`--proc`, `--dev`, `--tmpfs`): the image's own are never shown. */
const FRESH = new Set(['/proc', '/dev', '/tmp']);

/**
 * An environment image's unpacked root as the sandbox's `/`, read-only: its top-level entries bound
 * from `rootfs` into bwrap's own root (as the host's /usr, /bin… are without an image), so the
 * mounts greenfix adds (the workspace, the git view, /etc/passwd naming the job's uid, the egress
 * directory) land in bwrap's tmpfs root, never in the shared, host-owned image. A directory on the
 * way to a destination the image lacks is made empty (`--dir`) and its other children bound one by
 * one; a symlink or file on that way is refused (a mount would follow it). Nothing is written to
 * `rootfs`, and nothing of it is followed here: lstat and readdir only.
 */
export function imageRootEntries(rootfs: string, destinations: readonly MountDestination[]): SystemEntry[] {
  const entries: SystemEntry[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(rootfs, dir)).sort()) {
      const path = `${dir}/${name}`;
      if (FRESH.has(path)) continue;
      const stat = lstatSync(join(rootfs, path));
      const below = destinations.filter((d) => d.path.startsWith(`${path}/`) || d.path === path);
      if (below.length === 0 || below.every((d) => d.path !== path && landsInside(rootfs, d))) {
        const entry = toEntry(rootfs, path, stat);
        if (entry) entries.push(entry);
        continue;
      }
      if (below.some((d) => d.path === path)) continue;
      if (!stat.isDirectory()) {
        throw new SandboxRequestError('bind-refused', `the environment image's ${path} is ${stat.isSymbolicLink() ? 'a symlink' : 'a file'}, and the sandbox must mount ${below[0]?.path} below it`);
      }
      entries.push({ path, kind: 'mkdir' });
      walk(path);
    }
  };
  walk('');
  return entries;
}

function toEntry(rootfs: string, path: string, stat: Stats): SystemEntry | null {
  if (stat.isSymbolicLink()) return { path, kind: 'symlink', target: readlink(rootfs, path) };
  if (stat.isDirectory() || stat.isFile()) return { path, kind: 'dir', source: join(rootfs, path) };
  return null;
}

/** Whether `d` already exists in the image, of its kind, reached through directories only: bwrap mounts over it in place. */
function landsInside(rootfs: string, d: MountDestination): boolean {
  const parts = d.path.split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    let stat: Stats;
    try {
      stat = lstatSync(join(rootfs, ...parts.slice(0, i)));
    } catch {
      return false;
    }
    const last = i === parts.length;
    if (!last && !stat.isDirectory()) return false;
    if (last) return d.kind === 'dir' ? stat.isDirectory() : stat.isFile();
  }
  return false;
}

function readlink(rootfs: string, path: string): string {
  return readlinkSync(join(rootfs, path));
}

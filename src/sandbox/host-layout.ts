import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SystemEntry } from './bwrap-args.js';

/** Top-level system directories the sandbox may read. Never `/`: it would show /root, /home, the app. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * /etc entries tools need. /etc is exposed selectively rather than whole: 0600 files are already
 * unreadable to the sandbox uid, but admins also keep world-readable credentials there (npmrc,
 * pip.conf, environment files, a PRIVATE_KEY_PATH), which the uid drop would not hide.
 * A trailing `*` matches by prefix.
 */
export const ETC_ALLOW = [
  'passwd', 'group', 'nsswitch.conf', 'hosts', 'host.conf', 'gai.conf', 'protocols', 'services',
  'networks', 'alternatives', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'localtime', 'timezone',
  'os-release', 'lsb-release', 'debian_version', 'gitconfig', 'mime.types', 'magic', 'magic.mime',
  'inputrc', 'locale.alias', 'locale.conf', 'fonts', 'perl', 'python*', 'java-*', 'maven', 'subversion',
];

/** Only the networked setup step needs CA certificates (HTTPS through CONNECT is end-to-end TLS); the proxy resolves names, so no resolv.conf. */
export const ETC_NETWORK = ['ssl', 'ca-certificates', 'ca-certificates.conf', 'pki', 'crypto-policies'];

/** What exists on this host among SYSTEM_DIRS; symlinks (merged /usr) are recreated as symlinks. */
export function probeSystemDirs(dirs: readonly string[] = SYSTEM_DIRS): SystemEntry[] {
  const entries: SystemEntry[] = [];
  for (const path of dirs) {
    const stat = lstatOrNull(path);
    if (!stat) continue;
    if (stat.isSymbolicLink()) entries.push({ path, kind: 'symlink', target: readlinkSync(path) });
    else if (stat.isDirectory()) entries.push({ path, kind: 'dir' });
  }
  return entries;
}

/** Absolute paths of the entries of `etcDir` matching `allow`. */
export function probeEtc(allow: readonly string[], etcDir = '/etc'): string[] {
  let names: string[];
  try {
    names = readdirSync(etcDir);
  } catch {
    return [];
  }
  const matches = (name: string) =>
    allow.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
  // A dangling symlink (resolv.conf pointing into an absent /run) would make bwrap fail.
  return names.filter(matches).sort().map((name) => join(etcDir, name)).filter((path) => existsSync(path));
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

import { readFileSync } from 'node:fs';
import type { FileOwner } from './ownership.js';

/** The name a leased uid (and its group) gets inside the sandbox. */
export const SANDBOX_USER = 'greenfix';

export interface IdentityFile {
  path: '/etc/passwd' | '/etc/group';
  data: Buffer;
}

/**
 * The host's passwd and group, with an entry for `owner` added when the host has none: a leased
 * uid exists only as a number, and `id -un`, Node's `os.userInfo()`, Python's `getpass` and
 * anything else that asks NSS for the current user fail without one. Pure: the host texts in, the
 * texts to mount out; only files the sandbox already sees (`etc`) are replaced.
 */
export function sandboxIdentity(owner: FileOwner, home: string, host: { passwd: string | null; group: string | null }): IdentityFile[] {
  const files: IdentityFile[] = [];
  if (host.passwd !== null && !hasId(host.passwd, 2, owner.uid)) {
    files.push({ path: '/etc/passwd', data: Buffer.from(`${withNewline(host.passwd)}${SANDBOX_USER}:x:${owner.uid}:${owner.gid}:greenfix sandbox:${home}:/usr/sbin/nologin\n`) });
  }
  if (host.group !== null && !hasId(host.group, 2, owner.gid)) {
    files.push({ path: '/etc/group', data: Buffer.from(`${withNewline(host.group)}${SANDBOX_USER}:x:${owner.gid}:\n`) });
  }
  return files;
}

/** The host's own passwd and group, for those of them the sandbox binds (null: not bound, or unreadable). */
export function readHostIdentity(etc: readonly string[]): { passwd: string | null; group: string | null } {
  const read = (path: string) => {
    if (!etc.includes(path)) return null;
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  };
  return { passwd: read('/etc/passwd'), group: read('/etc/group') };
}

function hasId(text: string, field: number, id: number): boolean {
  return text.split('\n').some((line) => line.split(':')[field] === String(id));
}

const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

import { existsSync } from 'node:fs';
import { readRegularText, RegularFileError } from '../util/regular-file.js';
import type { BwrapPlan, SystemEntry } from './bwrap-args.js';
import { SYSTEM_CA_BUNDLE } from './egress-session.js';
import { HOST_NODE_MOUNT, type HostNode } from './host-node.js';
import { imageRootEntries, type MountDestination } from './image-root.js';
import type { FileOwner } from './ownership.js';
import { sandboxIdentity, type IdentityFile } from './sandbox-identity.js';
import type { ReadOnlyBind, SandboxImage, WritableBind } from './types.js';

export interface ImagePlanInput {
  image: SandboxImage;
  owner: FileOwner | null;
  home: string;
  /** Where the workspace is mounted inside. */
  mountAt: string;
  readOnlyBinds: readonly ReadOnlyBind[];
  writableBinds: readonly WritableBind[];
  egress: BwrapPlan['egress'];
  /** The host's node for the egress forwarder (host-node.ts), asked only for a networked request. */
  hostNode: (node: string) => HostNode;
}

/** What an environment image changes in a command's bwrap plan. */
export interface ImagePlan {
  system: SystemEntry[];
  identity: IdentityFile[];
  readOnlyBinds: ReadOnlyBind[];
  egress: BwrapPlan['egress'];
  /** For the setup step: the host's CA bundle for every TLS stack (the egress goes out through the host). */
  env: Record<string, string>;
}

const CA_TARGET = `${HOST_NODE_MOUNT}/ca-certificates.crt`;

/**
 * The image's root in place of the host's /usr, /bin, /lib and /etc (image-root.ts); /etc/passwd
 * and /etc/group are the image's own with the job's uid added; no GREENFIX_SANDBOX_RO_PATHS (the
 * image is the userland). A networked setup also gets the host's node (the forwarder) and the
 * host's CA bundle, read-only under HOST_NODE_MOUNT: the way out is the host's, and a
 * TLS-inspecting gateway's CA is known only there.
 */
export function imagePlan(input: ImagePlanInput): ImagePlan {
  const { image, egress } = input;
  const identity = input.owner ? sandboxIdentity(input.owner, input.home, imageIdentity(image.rootfs)) : [];
  const extra: ReadOnlyBind[] = [];
  let planEgress = egress;
  const env: Record<string, string> = {};
  if (egress) {
    const node = input.hostNode(egress.node);
    extra.push(...node.binds);
    const ca = existsSync(SYSTEM_CA_BUNDLE) ? SYSTEM_CA_BUNDLE : null;
    if (ca) {
      extra.push({ source: ca, target: CA_TARGET });
      for (const name of ['SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'GIT_SSL_CAINFO', 'PIP_CERT']) env[name] = CA_TARGET;
    }
    planEgress = { ...egress, launcher: node.argv, caBundle: ca ? CA_TARGET : null };
  }
  const readOnlyBinds = [...input.readOnlyBinds, ...extra];
  const destinations: MountDestination[] = [
    { path: input.mountAt, kind: 'dir' },
    ...input.readOnlyBinds.map((b) => ({ path: b.target, kind: 'dir' as const })),
    ...input.writableBinds.map((b) => ({ path: b.target, kind: 'dir' as const })),
    ...extra.map((b) => ({ path: b.target, kind: 'file' as const })),
    ...(egress ? [{ path: egress.mount, kind: 'dir' as const }] : []),
    ...identity.map((file) => ({ path: file.path, kind: 'file' as const })),
  ];
  return { system: imageRootEntries(image.rootfs, destinations), identity, readOnlyBinds, egress: planEgress, env };
}

/** The image's passwd and group ('' when absent: the job's entry is then the only one); null when not a regular file. */
function imageIdentity(rootfs: string): { passwd: string | null; group: string | null } {
  const read = (name: string) => {
    try {
      return readRegularText(rootfs, `etc/${name}`, 4 * 1024 * 1024) ?? '';
    } catch (error) {
      if (error instanceof RegularFileError) return null;
      throw error;
    }
  };
  return { passwd: read('passwd'), group: read('group') };
}

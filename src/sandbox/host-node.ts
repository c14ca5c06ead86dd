import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { SandboxUnavailableError } from './errors.js';
import type { ReadOnlyBind } from './types.js';

/** Where the host's node, its loader and libraries appear in a sandbox whose `/` is an environment image. */
export const HOST_NODE_MOUNT = '/run/greenfix-host';

/** The host's node inside an image's root: the files to bind, and the argv that starts it. */
export interface HostNode {
  binds: ReadOnlyBind[];
  argv: string[];
}

/**
 * The setup step's egress forwarder is a node script (egress-forwarder.ts). An environment image
 * may have no node, or one greenfix never checked, so the host's own runs it: its binary, the
 * dynamic loader and exactly the libraries `ldd` names, each bound read-only under HOST_NODE_MOUNT,
 * and started through that loader with `--library-path`, so nothing of the image is loaded into
 * it and nothing else of the host is shown. Read once per sandbox (the host's node does not change).
 */
export function hostNode(node: string): HostNode {
  let listing: string;
  try {
    listing = execFileSync('ldd', [node], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } });
  } catch (error) {
    throw new SandboxUnavailableError('node-missing', `the setup step's egress forwarder needs the host's node (${node}) inside environment images, and ldd could not list its libraries: ${(error as Error).message}`);
  }
  const libs = [...listing.matchAll(/^\s*(\S+) => (\/\S+) \(0x/gm)].map((m) => ({ name: m[1] as string, path: m[2] as string }));
  const loader = /^\s*(\/\S+) \(0x/m.exec(listing)?.[1];
  if (!loader) {
    // A static node needs no loader.
    return { binds: [{ source: realpathSync(node), target: `${HOST_NODE_MOUNT}/node` }], argv: [`${HOST_NODE_MOUNT}/node`] };
  }
  const binds: ReadOnlyBind[] = [
    { source: realpathSync(node), target: `${HOST_NODE_MOUNT}/node` },
    { source: realpathSync(loader), target: `${HOST_NODE_MOUNT}/${basename(loader)}` },
    ...libs.map((lib) => ({ source: realpathSync(lib.path), target: `${HOST_NODE_MOUNT}/lib/${basename(lib.name)}` })),
  ];
  return { binds, argv: [`${HOST_NODE_MOUNT}/${basename(loader)}`, '--library-path', `${HOST_NODE_MOUNT}/lib`, `${HOST_NODE_MOUNT}/node`] };
}

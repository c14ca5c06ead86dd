import { chmodSync, chownSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWithin } from './app-dirs.js';
import type { AllowLists } from './domain-allow-list.js';
import type { EndpointPolicy, Resolver } from './egress-decision.js';
import { FORWARDER_FILE, FORWARDER_SOURCE } from './egress-forwarder.js';
import { type EgressReport } from './egress-ledger.js';
import { findExecutable } from './find-executable.js';
import type { FileOwner } from './ownership.js';
import { isProcessAlive, processStartTime } from './process-alive.js';

/** Where the session's directory appears inside the sandbox, and the forwarder's port there. */
export const EGRESS_MOUNT = '/run/greenfix-egress';
export const EGRESS_PORT = 3128;
export const PROXY_SOCKET = 'proxy.sock';

export interface EgressSession {
  /** Host directory holding the proxy's socket and the forwarder, bound read-only at EGRESS_MOUNT. */
  dir: string;
  report(): EgressReport;
  /** Stops the proxy (open tunnels are cut) and removes the directory. */
  close(): Promise<void>;
}

export interface EgressSessionOptions {
  allow: AllowLists;
  /** Who the sandbox runs as: the socket is theirs (0600) so only that uid connects. */
  runAs: FileOwner | null;
  policy?: EndpointPolicy;
  resolve?: Resolver;
  /** Where the session's directory is made; default the OS temp dir. */
  tmp?: string;
}

const EGRESS_DIR = /^greenfix-egress-(\d+)-(\d+)-/;

/** `greenfix-egress-<pid>-<start time>-`: the directory names the process that owns it. */
function egressDirPrefix(pid: number): string {
  return `greenfix-egress-${pid}-${processStartTime(pid) ?? 0}-`;
}

/**
 * Removes session directories whose process is gone (killed mid-setup: `close` never ran), and
 * returns their names. A live process's directories, and anything not named like one, stay.
 */
export function sweepEgressDirs(tmp = tmpdir()): string[] {
  const swept: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return swept;
  }
  for (const name of names) {
    const owner = EGRESS_DIR.exec(name);
    if (!owner || isProcessAlive(Number(owner[1]), Number(owner[2]))) continue;
    rmSync(join(tmp, name), { recursive: true, force: true });
    swept.push(name);
  }
  return swept;
}

/**
 * One proxy per setup run (started before the command, stopped after, socket removed): its report
 * then belongs to exactly that run, and nothing listens between setups.
 */
export async function openEgressSession(options: EgressSessionOptions): Promise<EgressSession> {
  const dir = mkdtempSync(join(options.tmp ?? tmpdir(), egressDirPrefix(process.pid)));
  try {
    chmodSync(dir, 0o711);
    writeFileSync(join(dir, FORWARDER_FILE), FORWARDER_SOURCE, { mode: 0o644 });
    const socket = join(dir, PROXY_SOCKET);
    // The proxy (HTTP server, resolver, address policy) loads with the first setup that needs the network, not at every start.
    const { startEgressProxy } = await import('./egress-proxy.js');
    const proxy = await startEgressProxy({
      listen: { path: socket },
      allow: options.allow,
      ...(options.policy ? { policy: options.policy } : {}),
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    if (options.runAs) chownSync(socket, options.runAs.uid, options.runAs.gid);
    chmodSync(socket, 0o600);
    return {
      dir,
      report: () => proxy.report(),
      close: async () => {
        await proxy.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The system CA bundle (Debian's path), bound into the setup sandbox with /etc/ssl. */
export const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The variables package managers read to find a proxy; none carries a secret. */
export function proxyEnvironment(port: number = EGRESS_PORT): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = { NO_PROXY: '', no_proxy: '' };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'npm_config_proxy', 'npm_config_https_proxy', 'YARN_HTTP_PROXY', 'YARN_HTTPS_PROXY']) {
    env[name] = url;
  }
  return env;
}

/**
 * The node that runs the forwarder inside the sandbox: found on the sandbox's PATH and, after
 * symlinks, under a directory the sandbox sees at the same path (/usr… or an extra read-only path).
 */
export function findSandboxNode(pathValue: string, visible: readonly string[]): string | null {
  const node = findExecutable('node', pathValue);
  if (!node) return null;
  const real = realpathSync(node);
  return visible.some((dir) => isWithin(real, dir)) ? node : null;
}

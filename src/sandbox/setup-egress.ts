import { existsSync } from 'node:fs';
import type { BwrapPlan, SystemEntry } from './bwrap-args.js';
import type { EndpointPolicy, Resolver } from './egress-decision.js';
import { FORWARDER_FILE } from './egress-forwarder.js';
import {
  EGRESS_MOUNT, EGRESS_PORT, PROXY_SOCKET, SYSTEM_CA_BUNDLE, findSandboxNode, openEgressSession, proxyEnvironment, sweepEgressDirs, type EgressSession,
} from './egress-session.js';
import { DEFAULT_SANDBOX_PATH } from './environment.js';
import { SandboxUnavailableError } from './errors.js';
import type { FileOwner } from './ownership.js';

export interface EgressOptions {
  /** The operator's allow-list (GREENFIX_SETUP_ALLOW); null or absent: any public host. */
  allow?: readonly string[] | null;
  /** The node that runs the forwarder inside; default: found on the sandbox PATH under /usr… */
  node?: string;
  /** Tests only: a policy that lets one loopback server count as public, a fake resolver. */
  policy?: EndpointPolicy;
  resolve?: Resolver;
}

/** What a networked request adds to the bwrap plan and the environment, and its proxy. */
export interface SetupEgress {
  session: EgressSession;
  plan: NonNullable<BwrapPlan['egress']>;
  env: Record<string, string>;
}

export interface SetupEgressHost {
  options: EgressOptions | undefined;
  system: readonly SystemEntry[];
  extraReadOnlyPaths: readonly string[];
  networkEtc: readonly string[];
  path: string | undefined;
}

/**
 * Prepares the setup step's way out, once per sandbox: the node that runs the forwarder (checked
 * when the sandbox is created, so a host without one fails at startup) and the CA bundle node
 * tools should trust. `open` then starts one proxy per networked request, its socket owned by the
 * uid the command runs as (a job's own).
 */
export function setupEgress(host: SetupEgressHost): (repoAllow: readonly string[] | undefined, runAs: FileOwner | null) => Promise<SetupEgress> {
  const visible = [...host.system.filter((e) => e.kind === 'dir').map((e) => e.path), ...host.extraReadOnlyPaths];
  const node = host.options?.node ?? findSandboxNode(host.path ?? DEFAULT_SANDBOX_PATH, visible);
  if (!node) {
    throw new SandboxUnavailableError(
      'node-missing',
      'the setup step reaches its egress proxy through node inside the sandbox, and no node was found on the sandbox PATH under /usr… ' +
        '(install it there, or add its install directory to GREENFIX_SANDBOX_RO_PATHS)',
    );
  }
  // Node tools (npm, yarn, pnpm) then trust the system's CAs, as curl, pip and git already do: a host
  // behind a TLS-inspecting egress gateway (these CI machines) has its CA only there.
  const caBundle = host.networkEtc.includes('/etc/ssl') && existsSync(SYSTEM_CA_BUNDLE) ? SYSTEM_CA_BUNDLE : null;
  // A process killed mid-setup left its session directory behind: the next sandbox removes it.
  sweepEgressDirs();
  return async (repoAllow, runAs) => {
    // The operator's list and the repository's: a host must be on both.
    const operator = host.options?.allow ?? null;
    const repo = repoAllow && repoAllow.length > 0 ? repoAllow : null;
    const allow = [operator, repo].filter((list): list is readonly string[] => list !== null);
    const session = await openEgressSession({
      allow,
      runAs,
      ...(host.options?.policy ? { policy: host.options.policy } : {}),
      ...(host.options?.resolve ? { resolve: host.options.resolve } : {}),
    });
    return {
      session,
      plan: { dir: session.dir, mount: EGRESS_MOUNT, node, forwarder: FORWARDER_FILE, socket: PROXY_SOCKET, port: EGRESS_PORT, caBundle },
      env: proxyEnvironment(EGRESS_PORT),
    };
  };
}

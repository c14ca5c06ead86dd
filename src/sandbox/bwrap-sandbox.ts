/**
 * The bubblewrap sandbox: every model-chosen or repository-defined command runs here.
 *
 * What is isolated, and why:
 * - Identity: when greenfix is root it drops to uid/gid 65534 (setpriv) BEFORE bwrap, because a
 *   user namespace created by root still maps to uid 0 outside and could read root-only files.
 *   The worktree is chowned to that uid (`prepareWorkspaceOwnership`). Not root: the current user.
 * - Filesystem: nothing is bound by default except /usr (and /bin, /lib… or their merged-usr
 *   symlinks) and allow-listed /etc entries, all read-only; a private size-capped tmpfs /tmp
 *   (HOME=/tmp/home); fresh /proc and /dev; the workspace read-write at its own path; the
 *   worktree's git common dir read-only. Never `/`: /root, /home, /work, /run, /var and greenfix's
 *   own directories (cwd, install dir) do not exist inside. `extraReadOnlyPaths` adds tool installs.
 * - Network: its own empty network namespace (loopback only), always. A request with
 *   `network: true` (the setup step) reaches the world only through greenfix's egress proxy
 *   (egress-proxy.ts, one per run): public addresses only, optionally only allow-listed domains;
 *   it sees the CA certificates, not resolv.conf (the proxy resolves).
 * - Environment: cleared, then an allow-list plus the request's variables, refused when they look
 *   like secrets (`SandboxRequestError('env-refused')`).
 * - Processes: own pid, ipc, uts and user namespaces, no nested user namespaces, a new session
 *   (no TIOCSTI on our terminal), and --die-with-parent: when greenfix kills bwrap on timeout or
 *   abort, the namespace's init dies and the kernel kills everything left inside.
 * - Limits: wall time (runProcess), RLIMIT_NPROC when uid-dropped (it counts per real uid, so it is
 *   only meaningful for a uid of its own), RLIMIT_FSIZE, tmpfs size, capped output. No address
 *   space limit: node and JVMs reserve huge virtual ranges.
 * Deployment: bubblewrap >= 0.8 (--disable-userns). Each run leaves bwrap's namespace init to be
 * reaped by pid 1, and zombies count against RLIMIT_NPROC: in a container, run with an init that
 * reaps (docker --init, tini), never node as pid 1.
 */
import { existsSync } from 'node:fs';
import { runProcess } from '../util/run-process.js';
import { isWithin } from './app-dirs.js';
import { buildBwrapArgs, buildLaunchArgv, type LaunchTools, type SystemEntry } from './bwrap-args.js';
import type { EndpointPolicy, Resolver } from './egress-decision.js';
import { EGRESS_MOUNT, EGRESS_PORT, PROXY_SOCKET, SYSTEM_CA_BUNDLE, findSandboxNode, openEgressSession, proxyEnvironment, type EgressSession } from './egress-session.js';
import { FORWARDER_FILE } from './egress-forwarder.js';
import { DEFAULT_SANDBOX_PATH, sandboxEnvironment } from './environment.js';
import { SandboxRequestError, SandboxUnavailableError } from './errors.js';
import { gitCommonDirOf } from './git-common-dir.js';
import { ETC_ALLOW, ETC_NETWORK, probeEtc, probeSystemDirs } from './host-layout.js';
import { isReachableBy, type FileOwner } from './ownership.js';
import { resolveCwd } from './request-paths.js';
import { toSandboxResult } from './to-sandbox-result.js';
import type { Sandbox, SandboxRequest, SandboxResult } from './types.js';

export interface SandboxLimits {
  processes: number;
  fileSizeBytes: number;
  tmpBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  processes: 4096,
  fileSizeBytes: 1024 ** 3,
  tmpBytes: 1024 ** 3,
};

export interface BwrapSandboxOptions {
  tools: LaunchTools;
  /** Who commands run as; null = the current user (greenfix is not root). */
  runAs: FileOwner | null;
  /** greenfix's own directories: a workspace containing one is refused. */
  appDirs: readonly string[];
  /** Already validated (see validateReadOnlyPaths). */
  extraReadOnlyPaths?: readonly string[];
  limits?: Partial<SandboxLimits>;
  /** PATH inside; a request may still override it through `env`. */
  path?: string;
  headBytes?: number;
  tailBytes?: number;
  bindGitCommonDir?: boolean;
  /** Host probes, injectable for tests; default: the real /usr, /bin… and /etc. */
  system?: readonly SystemEntry[];
  etc?: readonly string[];
  networkEtc?: readonly string[];
  egress?: EgressOptions;
}

export interface EgressOptions {
  /** The operator's allow-list (GREENFIX_SETUP_ALLOW); null or absent: any public host. */
  allow?: readonly string[] | null;
  /** The node that runs the forwarder inside; default: found on the sandbox PATH under /usr… */
  node?: string;
  /** Tests only: a policy that lets one loopback server count as public, a fake resolver. */
  policy?: EndpointPolicy;
  resolve?: Resolver;
}

const HOME = '/tmp/home';

export function createBwrapSandbox(options: BwrapSandboxOptions): Sandbox {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const system = options.system ?? probeSystemDirs();
  const etc = options.etc ?? probeEtc(ETC_ALLOW);
  const networkEtc = options.networkEtc ?? probeEtc(ETC_NETWORK);
  const node = sandboxNode(options, system);
  const caBundle = networkEtc.includes('/etc/ssl') && existsSync(SYSTEM_CA_BUNDLE) ? SYSTEM_CA_BUNDLE : null;

  const run = async (request: SandboxRequest): Promise<SandboxResult> => {
    const workspace = request.workspace;
    const cwd = resolveCwd(workspace, request.cwd);
    const exposed = options.appDirs.find((dir) => isWithin(dir, workspace));
    if (exposed) {
      throw new SandboxRequestError('workspace-exposes-app', `workspace ${workspace} contains greenfix's own directory ${exposed}`);
    }
    if (options.runAs && !isReachableBy(workspace, options.runAs)) {
      throw new SandboxRequestError(
        'workspace-unreachable',
        `workspace ${workspace} is not reachable by the sandbox uid ${options.runAs.uid}: every parent directory needs o+x`,
      );
    }
    const session = request.network === true ? await openEgress(request, options, node) : null;
    try {
      const result = await runIn(request, session, cwd);
      return session ? { ...result, egress: session.report() } : result;
    } finally {
      await session?.close();
    }
  };

  const runIn = async (request: SandboxRequest, session: (EgressSession & { node: string }) | null, cwd: string): Promise<SandboxResult> => {
    const workspace = request.workspace;
    const extra = session ? { ...proxyEnvironment(EGRESS_PORT, caBundle), ...request.env } : request.env;
    const env = sandboxEnvironment(extra, { home: HOME, path: options.path });
    const bwrapArgs = buildBwrapArgs({
      system,
      etc,
      networkEtc,
      extraReadOnly: options.extraReadOnlyPaths ?? [],
      egress: session ? { dir: session.dir, mount: EGRESS_MOUNT, node: session.node, forwarder: FORWARDER_FILE, socket: PROXY_SOCKET, port: EGRESS_PORT } : null,
      gitCommonDir: options.bindGitCommonDir === false ? null : bindableGitDir(workspace, options),
      workspace,
      cwd,
      home: HOME,
      tmpBytes: limits.tmpBytes,
      env,
      command: request.command,
    });
    const result = await runProcess({
      argv: buildLaunchArgv(options.tools, options.runAs, limits, bwrapArgs),
      cwd: '/',
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      timeoutMs: request.timeoutMs,
      headBytes: options.headBytes,
      tailBytes: options.tailBytes,
      outputFile: request.outputFile,
      signal: request.signal,
    });
    return toSandboxResult(result);
  };

  return { kind: 'bwrap', run };
}

/** The node that runs the forwarder inside: checked when the sandbox is created, not at the first setup. */
function sandboxNode(options: BwrapSandboxOptions, system: readonly SystemEntry[]): string {
  const visible = [...system.filter((e) => e.kind === 'dir').map((e) => e.path), ...(options.extraReadOnlyPaths ?? [])];
  const node = options.egress?.node ?? findSandboxNode(options.path ?? DEFAULT_SANDBOX_PATH, visible);
  if (node) return node;
  throw new SandboxUnavailableError(
    'node-missing',
    'the setup step reaches its egress proxy through node inside the sandbox, and no node was found on the sandbox PATH under /usr… ' +
      '(install it there, or add its install directory to GREENFIX_SANDBOX_RO_PATHS)',
  );
}

/** The setup run's proxy, with the operator's and the repository's allow-lists (both must match). */
async function openEgress(request: SandboxRequest, options: BwrapSandboxOptions, node: string): Promise<EgressSession & { node: string }> {
  const operator = options.egress?.allow ?? null;
  const repo = request.egressAllow && request.egressAllow.length > 0 ? request.egressAllow : null;
  const allow = [operator, repo].filter((list): list is readonly string[] => list !== null);
  const session = await openEgressSession({
    allow,
    runAs: options.runAs,
    ...(options.egress?.policy ? { policy: options.egress.policy } : {}),
    ...(options.egress?.resolve ? { resolve: options.egress.resolve } : {}),
  });
  return Object.assign(session, { node });
}

/** The worktree's git common dir, when it is outside the workspace, safe and reachable to bind. */
function bindableGitDir(workspace: string, options: BwrapSandboxOptions): string | null {
  const dir = gitCommonDirOf(workspace);
  if (!dir || isWithin(dir, workspace)) return null;
  if (options.appDirs.some((app) => isWithin(app, dir))) return null;
  if (options.runAs && !isReachableBy(dir, options.runAs)) return null;
  return dir;
}

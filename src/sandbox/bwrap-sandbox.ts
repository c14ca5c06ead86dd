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
 *   workspace's git view read-only. Never `/`: /root, /home, /work, /run, /var and greenfix's
 *   own directories (cwd, install dir) do not exist inside. `extraReadOnlyPaths` adds tool installs.
 *   The git view (`request.readOnlyBinds`) was decided by the host when the workspace was made:
 *   nothing here reads a file of the worktree, so what a command writes into `.git` changes
 *   nothing about the mounts of the next one.
 * - Network: its own empty network namespace (loopback only), always. A request with
 *   `network: true` (the setup step) reaches the world only through greenfix's egress proxy
 *   (egress-proxy.ts, one per run, setup-egress.ts): public addresses only, optionally only
 *   allow-listed domains; it sees the CA certificates, not resolv.conf (the proxy resolves).
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
import { runProcess } from '../util/run-process.js';
import { isWithin } from './app-dirs.js';
import { buildBwrapArgs, buildLaunchArgv, type LaunchTools, type SystemEntry } from './bwrap-args.js';
import { sandboxEnvironment } from './environment.js';
import { setupEgress, type EgressOptions, type SetupEgress } from './setup-egress.js';
import { SandboxRequestError } from './errors.js';
import { ETC_ALLOW, ETC_NETWORK, probeEtc, probeSystemDirs } from './host-layout.js';
import { isReachableBy, type FileOwner } from './ownership.js';
import { checkReadOnlyBinds } from './read-only-binds.js';
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
  /** greenfix's own directories: a workspace containing one is refused, a bind overlapping one too. */
  appDirs: readonly string[];
  /** greenfix's workdir(s): binds inside them are allowed even inside an app dir (read-only-binds.ts). */
  dataDirs?: readonly string[];
  /** Already validated (see validateReadOnlyPaths). */
  extraReadOnlyPaths?: readonly string[];
  limits?: Partial<SandboxLimits>;
  /** PATH inside; a request may still override it through `env`. */
  path?: string;
  headBytes?: number;
  tailBytes?: number;
  /** Host probes, injectable for tests; default: the real /usr, /bin… and /etc. */
  system?: readonly SystemEntry[];
  etc?: readonly string[];
  networkEtc?: readonly string[];
  egress?: EgressOptions;
}

export type { EgressOptions } from './setup-egress.js';

const HOME = '/tmp/home';

export function createBwrapSandbox(options: BwrapSandboxOptions): Sandbox {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const system = options.system ?? probeSystemDirs();
  const etc = options.etc ?? probeEtc(ETC_ALLOW);
  const networkEtc = options.networkEtc ?? probeEtc(ETC_NETWORK);
  const openEgress = setupEgress({
    options: options.egress,
    runAs: options.runAs,
    system,
    extraReadOnlyPaths: options.extraReadOnlyPaths ?? [],
    networkEtc,
    path: options.path,
  });

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
    const readOnlyBinds = checkReadOnlyBinds(request.readOnlyBinds ?? [], workspace, {
      appDirs: options.appDirs,
      dataDirs: options.dataDirs ?? [],
      runAs: options.runAs,
    });
    const egress = request.network === true ? await openEgress(request.egressAllow) : null;
    try {
      const result = await runIn(request, cwd, readOnlyBinds, egress);
      return egress ? { ...result, egress: egress.session.report() } : result;
    } finally {
      await egress?.session.close();
    }
  };

  const runIn = async (request: SandboxRequest, cwd: string, readOnlyBinds: ReturnType<typeof checkReadOnlyBinds>, egress: SetupEgress | null): Promise<SandboxResult> => {
    const workspace = request.workspace;
    const env = sandboxEnvironment(egress ? { ...egress.env, ...request.env } : request.env, { home: HOME, path: options.path });
    const bwrapArgs = buildBwrapArgs({
      system,
      etc,
      networkEtc,
      extraReadOnly: options.extraReadOnlyPaths ?? [],
      egress: egress?.plan ?? null,
      readOnlyBinds,
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

/**
 * The bubblewrap sandbox: every model-chosen or repository-defined command runs here.
 *
 * What is isolated, and why:
 * - Identity: when greenfix is root every job leases a uid of its own (`forJob`, from
 *   GREENFIX_SANDBOX_UIDS) and drops to it (setpriv) BEFORE bwrap, because a user namespace created
 *   by root still maps to uid 0 outside and could read root-only files. The worktree is chowned
 *   to that uid. One-off commands (`run`) use nobody (65534). Not root: the current user.
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
 * - Limits: a cgroup per command (v2, or v1 memory + pids) capping memory and processes, joined
 *   by the launcher before anything runs and removed afterwards; without one, RLIMIT_NPROC for a
 *   uid of its own. Wall time (runProcess), RLIMIT_FSIZE, tmpfs size, capped output, and the
 *   job's disk watchdog (job-sandbox.ts). No address space limit: node and JVMs reserve huge
 *   virtual ranges.
 * - Syscalls: a seccomp filter (seccomp-filter.ts) refuses kernel interfaces no test needs.
 * Deployment: bubblewrap >= 0.8 (--disable-userns). Each run leaves bwrap's namespace init to be
 * reaped by pid 1, and zombies count against RLIMIT_NPROC: in a container, run with an init that
 * reaps (docker --init, tini), never node as pid 1.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute, normalize } from 'node:path';
import { runProcess } from '../util/run-process.js';
import { isWithin } from './app-dirs.js';
import { buildBwrapArgs, buildLaunchArgv, secretArgs, type LaunchTools, type SystemEntry } from './bwrap-args.js';
import { commandCgroupName, type Cgroups } from './cgroups.js';
import { DEFAULT_SANDBOX_PATH, checkSecrets, sandboxEnvironment } from './environment.js';
import { setupEgress, type EgressOptions, type SetupEgress } from './setup-egress.js';
import { SandboxRequestError } from './errors.js';
import { ETC_ALLOW, ETC_NETWORK, probeEtc, probeSystemDirs } from './host-layout.js';
import { makeEtcView, type EtcView } from './etc-view.js';
import { createJobCgroups, type JobCgroups } from './job-cgroups.js';
import { hostNode as probeHostNode, type HostNode } from './host-node.js';
import { imagePlan } from './image-plan.js';
import { createJobSandbox } from './job-sandbox.js';
import { isReachableBy, type FileOwner } from './ownership.js';
import { prepareWorkspaceOwnership, treeOwnerUid } from './prepare-workspace-ownership.js';
import { checkReadOnlyBinds } from './read-only-binds.js';
import { resolveCwd } from './request-paths.js';
import { seccompProgram } from './seccomp-filter.js';
import { readHostIdentity, sandboxIdentity } from './sandbox-identity.js';
import { toSandboxResult } from './to-sandbox-result.js';
import type { Sandbox, SandboxImage, SandboxRequest, SandboxResult } from './types.js';
import type { UidPool } from './uid-leases.js';
import { DEFAULT_LIMITS, type SandboxLimits } from './sandbox-limits.js';

export interface BwrapSandboxOptions {
  tools: LaunchTools;
  /** Who one-off commands run as; null = the current user (greenfix is not root). */
  runAs: FileOwner | null;
  /** Where jobs lease their uids; null = jobs run as `runAs` too (greenfix is not root). */
  uids: UidPool | null;
  /** Per-command cgroups; null = none could be created here (rlimits instead). */
  cgroups: Cgroups | null;
  /** Whether commands run under the seccomp filter. */
  seccomp: boolean;
  /** greenfix's own directories: a workspace containing one is refused, a bind overlapping one too. */
  appDirs: readonly string[];
  /** greenfix's workdir(s): binds inside them are allowed even inside an app dir (read-only-binds.ts). */
  dataDirs?: readonly string[];
  /** Already validated (see validateReadOnlyPaths). */
  extraReadOnlyPaths?: readonly string[];
  limits?: Partial<SandboxLimits>;
  /** PATH inside; a request may still override it through `env`. */
  path?: string;
  /** Variables every command gets (the user's toolchains' PYENV_ROOT…), checked like a request's. */
  baseEnv?: Record<string, string>;
  headBytes?: number;
  tailBytes?: number;
  /** Host probes, injectable for tests; default: the real /usr, /bin… and /etc. */
  system?: readonly SystemEntry[];
  etc?: readonly string[];
  networkEtc?: readonly string[];
  egress?: EgressOptions;
}

const HOME = '/tmp/home';
/** The launcher's descriptor carrying the seccomp program to bwrap. */
const SECCOMP_FD = 3;

/** What a job's commands share, prepared once when the job starts: who they run as, its /etc, its cgroups. */
interface JobResources {
  owner: FileOwner | null;
  /** The job's environment image, its root read-only as / (image-plan.ts); null: the host's userland. */
  image: SandboxImage | null;
  /** The job's /etc view, made at its first command that needs it and kept; null: the entries are bound one by one (one-off commands, an image, a failed copy). */
  etcView: () => Promise<EtcView | null>;
  cgroups: JobCgroups | null;
}

export function createBwrapSandbox(options: BwrapSandboxOptions): Sandbox {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const system = options.system ?? probeSystemDirs();
  const etc = options.etc ?? probeEtc(ETC_ALLOW);
  const networkEtc = options.networkEtc ?? probeEtc(ETC_NETWORK);
  const filter = options.seccomp ? seccompProgram() : undefined;
  const hostIdentity = readHostIdentity(etc);
  let sequence = 0;
  // Jobs keep their cgroups: the tag keeps two sandboxes of one process (a fallback, tests) apart.
  const tag = randomBytes(4).toString('hex');
  const jobCgroups = () =>
    options.cgroups
      ? createJobCgroups({
          cgroups: options.cgroups,
          limits: { memoryBytes: limits.memoryMb * 1024 * 1024, pids: limits.processes },
          name: () => commandCgroupName(process.pid, `${tag}-${(sequence += 1)}`),
        })
      : null;
  const openEgress = setupEgress({
    options: options.egress,
    system,
    extraReadOnlyPaths: options.extraReadOnlyPaths ?? [],
    networkEtc,
    path: options.path,
  });

  let hostNode: HostNode | undefined;
  const nodeForImages = (node: string) => (hostNode ??= probeHostNode(node));

  const runAs = async (request: SandboxRequest, job: JobResources): Promise<SandboxResult> => {
    const owner = job.owner;
    const workspace = request.workspace;
    const inside = mountPoint(request);
    const cwd = `${inside}${resolveCwd(workspace, request.cwd).slice(workspace.length)}`;
    const exposed = options.appDirs.find((dir) => isWithin(dir, workspace));
    if (exposed) {
      throw new SandboxRequestError('workspace-exposes-app', `workspace ${workspace} contains greenfix's own directory ${exposed}`);
    }
    if (owner && !isReachableBy(workspace, owner)) {
      throw new SandboxRequestError(
        'workspace-unreachable',
        `workspace ${workspace} is not reachable by the sandbox uid ${owner.uid}: every parent directory needs o+x`,
      );
    }
    const readOnlyBinds = checkReadOnlyBinds(request.readOnlyBinds ?? [], inside, {
      appDirs: options.appDirs,
      dataDirs: options.dataDirs ?? [],
      runAs: owner,
    });
    // The proxy's socket belongs to the command's uid (0600): only this job connects to it.
    const egress = request.network === true ? await openEgress(request.egressAllow, owner) : null;
    try {
      const result = await runIn(request, cwd, readOnlyBinds, egress, job);
      return egress ? { ...result, egress: egress.session.report() } : result;
    } finally {
      await egress?.session.close();
    }
  };

  const runIn = async (
    request: SandboxRequest,
    cwd: string,
    readOnlyBinds: ReturnType<typeof checkReadOnlyBinds>,
    egress: SetupEgress | null,
    job: JobResources,
  ): Promise<SandboxResult> => {
    const { owner, image } = job;
    const workspace = request.workspace;
    // Checked as the read-only binds are: host-decided (the setup step's package cache), never from the worktree.
    const writableBinds = checkReadOnlyBinds(request.writableBinds ?? [], mountPoint(request), { appDirs: options.appDirs, dataDirs: options.dataDirs ?? [], runAs: owner });
    // An environment image replaces the host's userland (image-plan.ts); everything else stays as it is.
    const inImage = image
      ? imagePlan({ image, owner, home: HOME, mountAt: mountPoint(request), readOnlyBinds, writableBinds, egress: egress?.plan ?? null, hostNode: nodeForImages })
      : null;
    // The user's toolchains (their variables in baseEnv, their PATH) are the host userland's; an image brings its own.
    const env = sandboxEnvironment({ ...(inImage ? {} : options.baseEnv), ...egress?.env, ...(egress ? inImage?.env : {}), ...request.env }, { home: HOME, path: inImage ? DEFAULT_SANDBOX_PATH : options.path });
    // Descriptors from 3 on: the seccomp program, then the files bwrap mounts from data.
    // A job's /etc copy is the host's: an image's /etc comes with its root (image-plan.ts).
    const etcView = egress || inImage ? null : await job.etcView();
    const identity = inImage ? inImage.identity : owner && !etcView ? sandboxIdentity(owner, HOME, hostIdentity) : [];
    const secrets = checkSecrets(request);
    const firstDataFd = SECCOMP_FD + (filter ? 1 : 0);
    const argsFd = secrets ? firstDataFd + identity.length : null;
    const bwrapArgs = buildBwrapArgs({
      system: inImage?.system ?? system,
      etc: inImage ? [] : etc,
      networkEtc: inImage ? [] : networkEtc,
      extraReadOnly: inImage ? [] : (options.extraReadOnlyPaths ?? []),
      egress: inImage ? inImage.egress : (egress?.plan ?? null),
      readOnlyBinds: inImage?.readOnlyBinds ?? readOnlyBinds,
      readOnlyRoot: inImage !== null,
      writableBinds,
      workspace,
      ...(request.mountAt ? { mountAt: request.mountAt } : {}),
      cwd,
      home: HOME,
      tmpBytes: limits.tmpBytes,
      env,
      command: request.command,
      seccompFd: filter ? SECCOMP_FD : null,
      dataFiles: identity.map((file, i) => ({ path: file.path, fd: firstDataFd + i })),
      ...(etcView ? { etcView } : {}),
      argsFd,
    });
    const cgroup = job.cgroups?.lease();
    const extraFds = [...(filter ? [filter] : []), ...identity.map((file) => file.data), ...(secrets ? [secretArgs(secrets)] : [])];
    try {
      const result = await runProcess({
        argv: buildLaunchArgv(options.tools, owner, limits, bwrapArgs, { cgroupJoin: cgroup?.joinFiles ?? [], passedFds: extraFds.length }),
        cwd: '/',
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
        timeoutMs: request.timeoutMs,
        headBytes: options.headBytes,
        tailBytes: options.tailBytes,
        outputFile: request.outputFile,
        signal: request.signal,
        extraFds,
      });
      const oom = cgroup?.oomKilled() ?? false;
      return { ...toSandboxResult(result), ...(oom ? { limit: { kind: 'memory' as const, limitMb: limits.memoryMb } } : {}) };
    } finally {
      await cgroup?.release();
    }
  };

  /** A one-off command: the identity files by descriptor, a cgroup of its own for its run. */
  const runOnce = async (request: SandboxRequest): Promise<SandboxResult> => {
    const cgroups = jobCgroups();
    try {
      return await runAs(request, { owner: options.runAs, image: null, etcView: async () => null, cgroups });
    } finally {
      await cgroups?.removeAll();
    }
  };

  return {
    kind: 'bwrap',
    owner: options.runAs,
    run: runOnce,
    async forJob({ workspace, image = null }) {
      const had = treeOwnerUid(workspace);
      const lease = options.uids ? await options.uids.acquire(had) : null;
      const owner = lease?.owner ?? options.runAs;
      try {
        if (image && owner && !isReachableBy(image.rootfs, owner)) {
          throw new SandboxRequestError('workspace-unreachable', `the environment image's root ${image.rootfs} is not reachable by the sandbox uid ${owner.uid}: every parent directory needs o+x`);
        }
        if (owner && had !== owner.uid) await prepareWorkspaceOwnership(workspace, owner);
      } catch (error) {
        lease?.release();
        throw error;
      }
      let etcView: Promise<EtcView | null> | undefined;
      const job: JobResources = {
        owner,
        image,
        // Made once: a copy that failed (null) is not tried again for this job.
        etcView: () => (etcView ??= image ? Promise.resolve(null) : makeEtcView({ etc, identity: owner ? sandboxIdentity(owner, HOME, hostIdentity) : [] })),
        cgroups: jobCgroups(),
      };
      return createJobSandbox({
        kind: 'bwrap',
        owner,
        run: (request) => runAs(request, job),
        workspace,
        image,
        disk: { limitMb: limits.diskMb, pollMs: limits.diskPollMs },
        release: async () => {
          // The cgroups first: nothing of the job may still run when its uid goes back.
          await job.cgroups?.removeAll();
          await (await etcView)?.remove();
          lease?.release();
        },
      });
    },
  };
}

/** Where the workspace is bound inside: its own path, or the host-decided `mountAt` (absolute, normalised, not /). */
function mountPoint(request: SandboxRequest): string {
  const at = request.mountAt;
  if (at === undefined) return request.workspace;
  if (!isAbsolute(at) || normalize(at) !== at || at === '/') {
    throw new SandboxRequestError('cwd-outside-workspace', `mountAt ${at} must be an absolute, normalised path below /`);
  }
  return at;
}

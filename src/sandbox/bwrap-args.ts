import { CLOSE_INHERITED_FDS, firstClosedFd } from './inherited-fds.js';

/**
 * The bubblewrap command line, as a pure function of a plan: what the sandbox can see is decided
 * here and nowhere else, so it can be read (and tested) without running anything.
 */

/**
 * One system path: a real directory (or file) to bind read-only — from `source` when it is not the
 * host's own (an environment image's root: image-root.ts) —, a symlink to recreate, or an empty
 * directory made in the sandbox's own root so that mounts below it have somewhere to go.
 */
export type SystemEntry =
  | { path: string; kind: 'dir'; source?: string }
  | { path: string; kind: 'symlink'; target: string }
  | { path: string; kind: 'mkdir' };

export interface BwrapPlan {
  /** /usr, /bin, /lib… as found on the host (merged-usr hosts have symlinks). */
  system: readonly SystemEntry[];
  /** Allow-listed /etc entries that exist on the host (absolute paths). */
  etc: readonly string[];
  /** Extra /etc entries only the networked setup step sees (CA certificates). */
  networkEtc: readonly string[];
  /** Further read-only paths (tool installs outside /usr). */
  extraReadOnly: readonly string[];
  /**
   * The setup step's egress: the host directory with the proxy's socket and the forwarder (bound
   * read-only at `mount`), and the system node that runs the forwarder. Null: no network at all.
   * The sandbox never shares the host's network namespace either way.
   */
  egress: {
    dir: string;
    mount: string;
    node: string;
    /** Replaces `node` as the forwarder's argv prefix (the host's node through its own loader, in an image). */
    launcher?: readonly string[];
    forwarder: string;
    socket: string;
    port: number;
    caBundle: string | null;
  } | null;
  /** The workspace's git view (host-decided), bound before the workspace so it stays writable. */
  readOnlyBinds: readonly { source: string; target: string }[];
  /** Host-decided read-write binds (the setup step's package-manager cache). */
  writableBinds?: readonly { source: string; target: string }[];
  workspace: string;
  /** Where the workspace is bound inside; default: `workspace`. `cwd` is a path inside. */
  mountAt?: string;
  cwd: string;
  home: string;
  tmpBytes: number;
  env: Record<string, string>;
  command: string;
  /** Descriptor bwrap reads the seccomp program from (the launcher's fd 3); null: no filter. */
  seccompFd: number | null;
  /** Descriptor bwrap reads more arguments from (`--setenv` of setup secrets), after the environment; null/absent: none. */
  argsFd?: number | null;
  /** Remount `/` read-only after every mount (an environment image's root: image-plan.ts). */
  readOnlyRoot?: boolean;
  /** Files bwrap reads from a descriptor and mounts read-only, in place of the host's (/etc/passwd naming a leased uid). */
  dataFiles?: readonly { path: string; fd: number }[];
  /**
   * A job's /etc laid out in one directory (etc-view.ts: the `etc` files and its identity files,
   * mount points for the `etc` directories), bound read-only as /etc, then the directories on
   * top, in place of `etc` and `dataFiles`. Not with `egress` (its entries have no mount points).
   */
  etcView?: { dir: string; dirs: readonly string[] };
}

/** Arguments after the bwrap executable, ending with the bash invocation of the command. */
export function buildBwrapArgs(plan: BwrapPlan): string[] {
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session'];
  args.push('--hostname', 'greenfix-sandbox');
  if (plan.seccompFd !== null) args.push('--seccomp', String(plan.seccompFd));
  for (const entry of plan.system) {
    if (entry.kind === 'dir') args.push('--ro-bind', entry.source ?? entry.path, entry.path);
    else if (entry.kind === 'mkdir') args.push('--dir', entry.path);
    else args.push('--symlink', entry.target, entry.path);
  }
  if (plan.etcView && !plan.egress) {
    args.push('--ro-bind', plan.etcView.dir, '/etc');
    for (const path of plan.etcView.dirs) args.push('--ro-bind', path, path);
  } else {
    const etc = plan.egress ? [...plan.etc, ...plan.networkEtc] : plan.etc;
    const replaced = new Set((plan.dataFiles ?? []).map((file) => file.path));
    for (const path of etc) if (!replaced.has(path)) args.push('--ro-bind', path, path);
    for (const file of plan.dataFiles ?? []) args.push('--ro-bind-data', String(file.fd), file.path);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', String(plan.tmpBytes), '--tmpfs', '/tmp', '--dir', plan.home);
  // Mounts apply in order: whatever lives under /tmp must come after the tmpfs.
  for (const path of plan.extraReadOnly) args.push('--ro-bind', path, path);
  for (const bind of plan.readOnlyBinds) args.push('--ro-bind', bind.source, bind.target);
  for (const bind of plan.writableBinds ?? []) args.push('--bind', bind.source, bind.target);
  if (plan.egress) args.push('--ro-bind', plan.egress.dir, plan.egress.mount);
  args.push('--bind', plan.workspace, plan.mountAt ?? plan.workspace, '--chdir', plan.cwd);
  // An image's root is bwrap's own tmpfs holding the image's binds: made read-only once every mount is in place.
  if (plan.readOnlyRoot) args.push('--remount-ro', '/');
  args.push('--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  if (plan.argsFd !== undefined && plan.argsFd !== null) args.push('--args', String(plan.argsFd));
  args.push('--');
  if (plan.egress) {
    const { node, launcher, mount, forwarder, socket, port, caBundle } = plan.egress;
    args.push(...(launcher ?? [node]), `${mount}/${forwarder}`, `${mount}/${socket}`, String(port), caBundle ?? '-');
  }
  args.push('bash', '--norc', '--noprofile', '-c', plan.command);
  return args;
}

export interface LaunchTools {
  bwrap: string;
  setpriv: string;
  /** bash: the first step closes inherited descriptors, joins the command's cgroup and sets its rlimits. */
  bash: string;
}

export interface LaunchLimits {
  /** RLIMIT_NPROC, counted per real uid: applied only with `runAs` and without a cgroup (the fallback). */
  processes: number;
  /** RLIMIT_FSIZE: the largest file the command may write (whole KiB: bash's `ulimit -f` unit). */
  fileSizeBytes: number;
}

/**
 * Moves itself into each cgroup file named (`0`: the writing thread, the whole of this one-thread
 * shell), then execs the rest: nothing runs outside the cgroup.
 */
const JOIN_CGROUPS = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo 0 > "$1" || exit 125; shift; n=$((n - 1)); done';

/** How the chain starts: the cgroup files to join, and how many descriptors from 3 on it hands to bwrap. */
export interface LaunchStart {
  /** CommandCgroup.joinFiles: v1 `tasks`, v2 `cgroup.procs`. */
  cgroupJoin: readonly string[];
  /** bwrap's seccomp program and data files (3, 4, …); every other descriptor from 3 on is closed. */
  passedFds: number;
}

/**
 * bash (close inherited descriptors, join the cgroup, set the rlimits: `ulimit` sets soft and hard
 * alike, as prlimit did, without a process of its own) → setpriv → bwrap, each exec'ing the next so
 * they share one pid and process group, and every process of the command starts inside the cgroup
 * with only the descriptors greenfix passed (bwrap closes those it reads).
 * The uid drop happens BEFORE bwrap: a user namespace created by root maps back to uid 0 outside
 * and would still read root-only files.
 */
export function buildLaunchArgv(
  tools: LaunchTools,
  runAs: { uid: number; gid: number } | null,
  limits: LaunchLimits,
  bwrapArgs: readonly string[],
  start: LaunchStart,
): string[] {
  const { cgroupJoin, passedFds } = start;
  const nproc = runAs && cgroupJoin.length === 0 ? ` -u ${integer(limits.processes)}` : '';
  const rlimits = `ulimit -f ${integer(Math.floor(limits.fileSizeBytes / 1024))}${nproc} || exit 125`;
  const script = `${CLOSE_INHERITED_FDS}; ${JOIN_CGROUPS}; ${rlimits}; exec "$@"`;
  const first = [tools.bash, '-c', script, 'greenfix-launch', String(firstClosedFd(passedFds)), String(cgroupJoin.length), ...cgroupJoin];
  const drop = runAs ? [tools.setpriv, `--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', '--no-new-privs', '--'] : [];
  return [...first, ...drop, tools.bwrap, ...bwrapArgs];
}

/** A limit as the shell reads it: a non-negative integer, never anything the script could run. */
function integer(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`sandbox limit ${value} is not a non-negative integer`);
  return String(value);
}

/** `--setenv NAME VALUE` for each secret, NUL-separated, as bwrap's `--args` descriptor reads them. */
export function secretArgs(secrets: Readonly<Record<string, string>>): Buffer {
  return Buffer.from(Object.entries(secrets).flatMap(([name, value]) => ['--setenv', name, value]).map((part) => `${part}\0`).join(''));
}

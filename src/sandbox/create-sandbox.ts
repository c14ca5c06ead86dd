import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { runProcess } from '../util/run-process.js';
import { defaultAppDirs } from './app-dirs.js';
import { createBwrapSandbox } from './bwrap-sandbox.js';
import type { SandboxLimits } from './sandbox-limits.js';
import { type EgressOptions } from './setup-egress.js';
import { detectCgroups, type CgroupDetection } from './detect-cgroups.js';
import { sweepEtcViews } from './etc-view.js';
import { parseAllowList } from './domain-allow-list.js';
import { SandboxConfigError, SandboxUnavailableError } from './errors.js';
import { findExecutable } from './find-executable.js';
import { sandboxFileOwner } from './ownership.js';
import { isProcessAlive } from './process-alive.js';
import { parseReadOnlyPaths, validateReadOnlyPaths } from './read-only-paths.js';
import { probeKey, readProbeVerdict, writeProbeVerdict } from './probe-cache.js';
import { parseSandboxSettings } from './sandbox-settings.js';
import { REFUSED_SYSCALLS } from './seccomp-filter.js';
import type { ToolchainPlan } from './toolchains.js';
import type { Sandbox } from './types.js';
import { createUidPool } from './uid-leases.js';
import { uidRangeText } from './uid-range.js';
import { createUnsandboxed } from './unsandboxed.js';

/** Machine-wide, so two worker processes never lease one uid; on tmpfs, so a reboot frees them all. */
export const DEFAULT_UID_LEASE_DIR = '/run/greenfix-uid-leases';

export type SandboxLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface CreateSandboxOptions {
  /** greenfix's configuration environment: PATH (to find bwrap), GREENFIX_SANDBOX, GREENFIX_SANDBOX_RO_PATHS, GREENFIX_SETUP_ALLOW. */
  env: Record<string, string | undefined>;
  log: (level: SandboxLogLevel, message: string) => void;
  /** Injectable for tests; default: the process's uid. */
  uid?: number;
  /** Default: the working directory and greenfix's install directory. */
  appDirs?: readonly string[];
  /** greenfix's workdir(s) (GREENFIX_WORKDIR): a workspace's git view may lie there even inside an app dir. */
  dataDirs?: readonly string[];
  /** Overrides what the environment says (tests). */
  limits?: Partial<SandboxLimits>;
  headBytes?: number;
  tailBytes?: number;
  /** Where uid leases live (default DEFAULT_UID_LEASE_DIR). */
  uidLeaseDir?: string;
  /** Injectable for tests; default: what this host offers (detectCgroups). */
  cgroups?: CgroupDetection;
  /** The user's toolchains (local commands: planToolchains): bound read-only, their PATH and variables inside. */
  toolchains?: Pick<ToolchainPlan, 'readOnlyPaths' | 'path' | 'env'>;
  /** Tests only: the egress proxy's policy and resolver (GREENFIX_SETUP_ALLOW still applies). */
  egress?: Pick<EgressOptions, 'policy' | 'resolve'>;
  /**
   * A host-owned file (0600 in a 0700 directory) where a passed probe's verdict is kept for later
   * launches under the same key (probe-cache.ts); default: probe every time. The CLI passes one in
   * its workdir: a broken host is found at the first launch, later ones skip the probe.
   */
  probeCache?: string;
}

const Mode = z.enum(['on', 'bwrap', 'off']);

const OFF_RISK =
  'commands then run as greenfix itself: they can read every file it can (private key, tokens on disk, other jobs), ' +
  'use the network, and leave processes behind';

/**
 * The sandbox for this deployment: bubblewrap, checked to really work here, or — only with an
 * explicit GREENFIX_SANDBOX=off — no isolation and a loud warning. Missing or broken bubblewrap is
 * an error, never a silent fallback.
 */
export async function createSandbox(options: CreateSandboxOptions): Promise<Sandbox> {
  const { env, log } = options;
  const mode = Mode.safeParse(env.GREENFIX_SANDBOX?.trim() || 'on');
  if (!mode.success) {
    throw new SandboxConfigError('bad-mode', `GREENFIX_SANDBOX=${env.GREENFIX_SANDBOX} is not valid: leave it unset, or 'off' to disable isolation`);
  }
  const settings = parseSandboxSettings(env);
  const output = { headBytes: options.headBytes, tailBytes: options.tailBytes };
  if (mode.data === 'off') {
    log('warn', `SANDBOX DISABLED (GREENFIX_SANDBOX=off): NO ISOLATION. ${OFF_RISK}.`);
    return createUnsandboxed({ path: env.PATH, ...output, disk: { limitMb: options.limits?.diskMb ?? settings.diskMb, pollMs: options.limits?.diskPollMs ?? 2000 } });
  }
  const bwrap = findExecutable('bwrap', env.PATH);
  if (!bwrap) {
    throw new SandboxUnavailableError(
      'bwrap-missing',
      'bubblewrap (bwrap) is not installed, and greenfix does not run commands without isolation. ' +
        `Install it: apt-get install bubblewrap. Or set GREENFIX_SANDBOX=off to disable isolation explicitly; ${OFF_RISK}.`,
    );
  }
  const limits = { memoryMb: settings.memoryMb, processes: settings.processes, diskMb: settings.diskMb, ...options.limits };
  const runAs = sandboxFileOwner(options.uid ?? process.getuid?.());
  const tools = {
    bwrap,
    bash: requireTool('bash', env.PATH, 'bash'),
    setpriv: runAs ? requireTool('setpriv', env.PATH) : 'setpriv',
  };
  const appDirs = options.appDirs ?? defaultAppDirs();
  const configured = validateReadOnlyPaths(parseReadOnlyPaths(env.GREENFIX_SANDBOX_RO_PATHS), appDirs, runAs, runAs ? settings.uids : null);
  const toolchains = options.toolchains;
  const extraReadOnlyPaths = [...new Set([...configured, ...(toolchains?.readOnlyPaths ?? [])])];
  const uids = runAs ? createUidPool({ range: settings.uids, dir: options.uidLeaseDir ?? DEFAULT_UID_LEASE_DIR }) : null;
  const setupAllow = parseAllowList(env.GREENFIX_SETUP_ALLOW);
  const egress = { allow: setupAllow, ...options.egress };
  let detected = options.cgroups ?? (await detectCgroups());
  sweepEtcViews(isProcessAlive);
  const build = () =>
    createBwrapSandbox({ tools, runAs, uids, cgroups: detected.cgroups, seccomp: true, appDirs, dataDirs: options.dataDirs ?? [], extraReadOnlyPaths, limits, egress, ...output,
      ...(toolchains ? { path: toolchains.path, baseEnv: toolchains.env } : {}) });
  const found = detected.cgroups ? { version: detected.cgroups.version, where: detected.cgroups.where } : null;
  const probeAt = options.probeCache
    ? { file: options.probeCache, key: probeKey(Object.values(tools), { runAs, uids: uids?.range ?? null, cgroups: found, appDirs, dataDirs: options.dataDirs ?? [], extraReadOnlyPaths, limits, toolchains: toolchains ?? null }) }
    : null;
  const known = probeAt ? readProbeVerdict(probeAt.file, probeAt.key) : null;
  if (known?.cgroupFallback && detected.cgroups) detected = { cgroups: null, why: known.cgroupFallback };
  let sandbox = build();
  if (!known) {
    const failed = await probe(sandbox, bwrap, runAs !== null);
    if (failed && detected.cgroups) {
      // The cgroups exist but the launcher could not join them: fall back rather than refuse to start.
      detected = { cgroups: null, why: `joining a cgroup failed (${failed})` };
      sandbox = build();
      const again = await probe(sandbox, bwrap, runAs !== null);
      if (again) throw brokenError(again);
    } else if (failed) {
      throw brokenError(failed);
    }
    if (probeAt) writeProbeVerdict(probeAt.file, probeAt.key, { cgroupFallback: found && !detected.cgroups ? (detected.why ?? 'joining a cgroup failed') : null });
  }
  const who = uids ? `a uid of its own per job (${uidRangeText(uids.range)})` : 'the current user (greenfix is not root: no uid per job)';
  const memoryMb = limits.memoryMb ?? settings.memoryMb;
  const processes = limits.processes ?? settings.processes;
  const caps = detected.cgroups
    ? `cgroup ${detected.cgroups.version} per command (memory ${memoryMb} MB, ${processes} processes)`
    : `no cgroup: ${detected.why}; instead ${runAs ? `RLIMIT_NPROC ${processes} per uid` : 'no process cap'} and no memory cap (RLIMIT_AS breaks node and JVMs)`;
  const level = detected.cgroups && uids ? 'info' : 'warn';
  const reach = setupAllow ? `only ${setupAllow.join(', ')}` : 'public hosts only';
  log(
    level,
    `sandbox: bubblewrap (${bwrap}) as ${who}; ${caps}; seccomp refusing ${REFUSED_SYSCALLS.length} syscalls; disk ${limits.diskMb ?? settings.diskMb} MB per job; ` +
      `no network except setup, which reaches ${reach} through the egress proxy`,
  );
  return sandbox;
}

function requireTool(name: string, pathValue: string | undefined, aptPackage = 'util-linux'): string {
  const found = findExecutable(name, pathValue);
  if (found) return found;
  throw new SandboxUnavailableError('tool-missing', `${name} is not installed (the sandbox needs it): apt-get install ${aptPackage}`);
}

/** keyctl's number (allowed to unprivileged code without the filter) where the host has perl to call it. */
const KEYCTL: Partial<Record<string, number>> = { x64: 250, arm64: 219 };

/**
 * `bwrap --version`, then `id -u` through the full launch path of a job (uid lease, cgroup,
 * seccomp) in a throw-away workspace, and — where perl is installed — one refused syscall
 * (keyctl must fail with EPERM: the filter is in force). Returns what went wrong, or null.
 */
async function probe(sandbox: Sandbox, bwrap: string, leases: boolean): Promise<string | null> {
  const version = await runProcess({ argv: [bwrap, '--version'], cwd: '/', env: {}, timeoutMs: 10_000 });
  if (version.exitCode !== 0) {
    throw new SandboxUnavailableError('bwrap-broken', `${bwrap} --version failed: ${version.stderr.trim()}`);
  }
  const workspace = mkdtempSync(join(tmpdir(), 'greenfix-probe-'));
  chmodSync(workspace, 0o755);
  const job = await sandbox.forJob({ workspace });
  try {
    const keyctl = KEYCTL[process.arch];
    const seccomp = keyctl ? `; if command -v perl >/dev/null; then perl -e 'syscall(${keyctl}, 0, -3, 0); print $!+0, "\\n"'; else echo 1; fi` : '; echo 1';
    const r = await job.run({ command: `id -u${seccomp}`, workspace, timeoutMs: 10_000 }).catch((error: unknown) => error as Error);
    if (r instanceof Error) return r.message;
    if (r.exitCode !== 0) return r.stderr.trim() || `exit code ${r.exitCode}`;
    const [uid, errno] = r.stdout.trim().split('\n');
    if (leases && uid !== String(job.owner?.uid)) return `the command ran as uid ${uid}, not ${job.owner?.uid}`;
    if (errno !== '1') throw new SandboxUnavailableError('bwrap-broken', `the seccomp filter is not in force: keyctl answered errno ${errno}, not EPERM`);
    return null;
  } finally {
    await job.release();
    rmSync(workspace, { recursive: true, force: true });
  }
}

function brokenError(detail: string): SandboxUnavailableError {
  return new SandboxUnavailableError(
    'bwrap-broken',
    `bubblewrap is installed but cannot create a sandbox here: ${detail}. ` +
      'Unprivileged user namespaces must be allowed (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ ' +
      'kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap; in a container: ' +
      '--security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined ' +
      `(podman: unmask=ALL), docs/self-hosting-and-docker.md). Or set GREENFIX_SANDBOX=off to disable isolation explicitly; ${OFF_RISK}.`,
  );
}

import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { runProcess } from '../util/run-process.js';
import { defaultAppDirs } from './app-dirs.js';
import { createBwrapSandbox, type EgressOptions, type SandboxLimits } from './bwrap-sandbox.js';
import { parseAllowList } from './domain-allow-list.js';
import { SandboxConfigError, SandboxUnavailableError } from './errors.js';
import { findExecutable } from './find-executable.js';
import { sandboxFileOwner } from './ownership.js';
import { parseReadOnlyPaths, validateReadOnlyPaths } from './read-only-paths.js';
import type { Sandbox } from './types.js';
import { createUnsandboxed } from './unsandboxed.js';

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
  limits?: Partial<SandboxLimits>;
  headBytes?: number;
  tailBytes?: number;
  /** Tests only: the egress proxy's policy and resolver (GREENFIX_SETUP_ALLOW still applies). */
  egress?: Pick<EgressOptions, 'policy' | 'resolve'>;
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
  const output = { headBytes: options.headBytes, tailBytes: options.tailBytes };
  if (mode.data === 'off') {
    log('warn', `SANDBOX DISABLED (GREENFIX_SANDBOX=off): NO ISOLATION. ${OFF_RISK}.`);
    return createUnsandboxed({ path: env.PATH, ...output });
  }
  const bwrap = findExecutable('bwrap', env.PATH);
  if (!bwrap) {
    throw new SandboxUnavailableError(
      'bwrap-missing',
      'bubblewrap (bwrap) is not installed, and greenfix does not run commands without isolation. ' +
        `Install it: apt-get install bubblewrap. Or set GREENFIX_SANDBOX=off to disable isolation explicitly; ${OFF_RISK}.`,
    );
  }
  const runAs = sandboxFileOwner(options.uid ?? process.getuid?.());
  const tools = { bwrap, prlimit: requireTool('prlimit', env.PATH), setpriv: runAs ? requireTool('setpriv', env.PATH) : 'setpriv' };
  const appDirs = options.appDirs ?? defaultAppDirs();
  const extraReadOnlyPaths = validateReadOnlyPaths(parseReadOnlyPaths(env.GREENFIX_SANDBOX_RO_PATHS), appDirs, runAs);
  const setupAllow = parseAllowList(env.GREENFIX_SETUP_ALLOW);
  const egress = { allow: setupAllow, ...options.egress };
  const sandbox = createBwrapSandbox({ tools, runAs, appDirs, dataDirs: options.dataDirs ?? [], extraReadOnlyPaths, limits: options.limits, egress, ...output });
  await probe(sandbox, bwrap, runAs);
  const who = runAs ? `uid ${runAs.uid}` : 'the current user';
  const reach = setupAllow ? `only ${setupAllow.join(', ')}` : 'public hosts only';
  log('info', `sandbox: bubblewrap (${bwrap}) as ${who}, no network except setup, which reaches ${reach} through the egress proxy`);
  return sandbox;
}

function requireTool(name: string, pathValue: string | undefined): string {
  const found = findExecutable(name, pathValue);
  if (found) return found;
  throw new SandboxUnavailableError('tool-missing', `${name} is not installed (the sandbox needs it): apt-get install util-linux`);
}

/** `bwrap --version`, then `true` through the full launch path in a throw-away workspace. */
async function probe(sandbox: Sandbox, bwrap: string, runAs: { uid: number; gid: number } | null): Promise<void> {
  const version = await runProcess({ argv: [bwrap, '--version'], cwd: '/', env: {}, timeoutMs: 10_000 });
  if (version.exitCode !== 0) {
    throw new SandboxUnavailableError('bwrap-broken', `${bwrap} --version failed: ${version.stderr.trim()}`);
  }
  const workspace = mkdtempSync(join(tmpdir(), 'greenfix-probe-'));
  try {
    if (runAs) chownSync(workspace, runAs.uid, runAs.gid);
    const r = await sandbox.run({ command: 'true', workspace, timeoutMs: 10_000 });
    if (r.exitCode !== 0) {
      throw new SandboxUnavailableError(
        'bwrap-broken',
        `bubblewrap is installed but cannot create a sandbox here: ${r.stderr.trim()}. ` +
          'Unprivileged user namespaces must be allowed (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ ' +
          'kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap; in Docker a seccomp/AppArmor ' +
          `profile that permits unshare). Or set GREENFIX_SANDBOX=off to disable isolation explicitly; ${OFF_RISK}.`,
      );
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

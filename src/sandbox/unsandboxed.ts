import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../util/run-process.js';
import { checkSecrets, sandboxEnvironment } from './environment.js';
import { withoutInheritedFds } from './inherited-fds.js';
import { createJobSandbox, type DiskLimit } from './job-sandbox.js';
import { SandboxConfigError } from './errors.js';
import { resolveCwd } from './request-paths.js';
import { toSandboxResult } from './to-sandbox-result.js';
import type { Sandbox, SandboxRequest } from './types.js';

export interface UnsandboxedOptions {
  path?: string;
  headBytes?: number;
  tailBytes?: number;
  /** The disk watchdog of a job (it needs no isolation). */
  disk?: DiskLimit;
}

/**
 * No isolation at all: only for GREENFIX_SANDBOX=off, set explicitly by someone who accepts that
 * commands can read every file and use every network greenfix can. It keeps what does not need
 * a sandbox: the allow-listed environment (no secrets), wall time, output caps, group kill, and
 * no descriptor greenfix inherited (inherited-fds.ts).
 */
export function createUnsandboxed(options: UnsandboxedOptions = {}): Sandbox {
  const run = async (request: SandboxRequest) => {
      const cwd = resolveCwd(request.workspace, request.cwd);
      const checked = sandboxEnvironment(request.env, { home: '', path: options.path });
      // A throw-away HOME: caches written to the workspace would show up in the tree hash.
      const home = mkdtempSync(join(tmpdir(), 'greenfix-home-'));
      const env = { ...checked, ...checkSecrets(request), HOME: request.env?.HOME ?? home };
      const result = await runProcess({
        argv: withoutInheritedFds('bash', ['bash', '--norc', '--noprofile', '-c', request.command]),
        cwd,
        env,
        timeoutMs: request.timeoutMs,
        headBytes: options.headBytes,
        tailBytes: options.tailBytes,
        outputFile: request.outputFile,
        signal: request.signal,
      }).finally(() => rmSync(home, { recursive: true, force: true }));
      return toSandboxResult(result);
  };
  return {
    kind: 'none',
    owner: null,
    run,
    forJob: async ({ workspace, image }) => {
      // An image is a root filesystem only a sandbox can show: without one, refuse rather than run on the host's.
      if (image) throw new SandboxConfigError('image-needs-sandbox', `the environment image ${image.reference} needs the sandbox, and GREENFIX_SANDBOX=off turned it off`);
      return createJobSandbox({ kind: 'none', owner: null, run, workspace, disk: options.disk ?? DEFAULT_DISK, release: () => undefined });
    },
  };
}

const DEFAULT_DISK: DiskLimit = { limitMb: 10240, pollMs: 2000 };

import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultAppDirs } from '../src/sandbox/app-dirs.js';
import { createBwrapSandbox } from '../src/sandbox/bwrap-sandbox.js';
import { findExecutable } from '../src/sandbox/find-executable.js';
import { sandboxFileOwner } from '../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../src/sandbox/prepare-workspace-ownership.js';
import { createUnsandboxed } from '../src/sandbox/unsandboxed.js';
import type { Sandbox, SandboxRunner } from '../src/sandbox/types.js';

export interface SandboxCommandBench {
  commands: number;
  /** A job's sandbox as deployed: its own uid, a cgroup per command, seccomp. */
  fullMsPerCommand: number;
  /** The launch chain without per-job resources: bash → setpriv → bwrap, shared uid, no cgroup, no seccomp. */
  baselineMsPerCommand: number;
  /** The baseline plus the seccomp program alone. */
  seccompMsPerCommand: number;
  /** No sandbox at all (GREENFIX_SANDBOX=off, a job's runner): what the per-step overhead is measured against. */
  unsandboxedMsPerCommand: number;
}

/**
 * The cost of the per-job isolation per command: `commands` runs of `true` through each variant,
 * interleaved in rounds of ten so load on the machine hits all four alike.
 */
export async function benchSandboxCommand(options: { sandbox: Sandbox; env: Record<string, string | undefined>; commands?: number }): Promise<SandboxCommandBench> {
  const { commands = 50 } = options;
  const path = options.env.PATH;
  const tool = (name: string) => findExecutable(name, path) ?? name;
  const tools = { bwrap: tool('bwrap'), bash: tool('bash'), setpriv: tool('setpriv') };
  const runAs = sandboxFileOwner();
  const plain = (seccomp: boolean) => createBwrapSandbox({ tools, runAs, uids: null, cgroups: null, seccomp, appDirs: defaultAppDirs() });
  const dir = mkdtempSync(join(tmpdir(), 'gf-bench-sandbox-'));
  chmodSync(dir, 0o755);
  const sharedWs = mkdtempSync(join(dir, 'ws-'));
  chmodSync(sharedWs, 0o755);
  await prepareWorkspaceOwnership(sharedWs, runAs);
  const jobWs = mkdtempSync(join(dir, 'job-'));
  chmodSync(jobWs, 0o755);
  const job = await options.sandbox.forJob({ workspace: jobWs });
  const openWs = mkdtempSync(join(dir, 'open-'));
  const unsandboxed = await createUnsandboxed({ path }).forJob({ workspace: openWs });
  try {
    const variants: Array<[keyof Omit<SandboxCommandBench, 'commands'>, SandboxRunner, string]> = [
      ['baselineMsPerCommand', plain(false), sharedWs],
      ['seccompMsPerCommand', plain(true), sharedWs],
      ['fullMsPerCommand', job, jobWs],
      ['unsandboxedMsPerCommand', unsandboxed, openWs],
    ];
    const total = { baselineMsPerCommand: 0, seccompMsPerCommand: 0, fullMsPerCommand: 0, unsandboxedMsPerCommand: 0 };
    for (const [, runner, ws] of variants) await runner.run({ command: 'true', workspace: ws, timeoutMs: 10_000 }); // warm up
    for (let done = 0; done < commands; done += 10) {
      for (const [name, runner, ws] of variants) {
        const started = performance.now();
        for (let i = 0; i < 10; i += 1) {
          const r = await runner.run({ command: 'true', workspace: ws, timeoutMs: 10_000 });
          if (r.exitCode !== 0) throw new Error(`sandbox bench: ${name} failed: ${r.stderr}`);
        }
        total[name] += performance.now() - started;
      }
    }
    const rounds = Math.ceil(commands / 10) * 10;
    return {
      commands: rounds,
      fullMsPerCommand: total.fullMsPerCommand / rounds,
      baselineMsPerCommand: total.baselineMsPerCommand / rounds,
      seccompMsPerCommand: total.seccompMsPerCommand / rounds,
      unsandboxedMsPerCommand: total.unsandboxedMsPerCommand / rounds,
    };
  } finally {
    await unsandboxed.release();
    await job.release();
    rmSync(dir, { recursive: true, force: true });
  }
}

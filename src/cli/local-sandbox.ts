import { readToolchainEnv } from '../config/toolchain-env.js';
import { defaultAppDirs } from '../sandbox/app-dirs.js';
import { createSandbox } from '../sandbox/create-sandbox.js';
import { sandboxFileOwner } from '../sandbox/ownership.js';
import { planToolchains, type ToolchainPlan } from '../sandbox/toolchains.js';
import type { Sandbox } from '../sandbox/types.js';
import { join } from 'node:path';
import { objectStoreOf } from '../workspace/sandbox-git-view.js';
import type { CliIo } from './io.js';

/** The verify and setup commands whose programs the sandbox must find. */
export type LocalCommands = { verify: string | null; setup: string | null };

/**
 * The sandbox of a local command (fix, chat, doctor): the run's files (`workdir`) and the
 * repository's object store (which the sandbox's git view binds read-only) are greenfix's data,
 * so a command run inside the repository (the working directory is one of greenfix's own) works.
 * The user's own toolchains that the commands resolve to are shown read-only (localToolchains).
 * A passed probe of the host is kept in the workdir for the next launches (probe-cache.ts).
 */
export async function createLocalSandbox(io: CliIo, local: LocalPlace, toolchains?: ToolchainPlan): Promise<Sandbox> {
  return createSandbox({
    env: io.env,
    dataDirs: local.dataDirs ?? (await localDataDirs(local)),
    probeCache: join(local.workdir, 'sandbox-probe.json'),
    log: (level, message) => io.stderr(`greenfix: ${level}: ${message}`),
    ...(toolchains ? { toolchains } : {}),
  });
}

/** What of the user's toolchains (their PATH, version managers' roots) the commands need, never their credentials. */
export async function localToolchains(io: CliIo, local: LocalPlace, commands: LocalCommands): Promise<ToolchainPlan> {
  return planToolchains({
    ...readToolchainEnv(io.env),
    commands: [commands.setup, commands.verify].filter((c): c is string => c !== null),
    appDirs: defaultAppDirs(),
    dataDirs: local.dataDirs ?? (await localDataDirs(local)),
    runAs: sandboxFileOwner(),
  });
}

/** Where a local command runs; `dataDirs` (localDataDirs) when the caller already has them: one git process fewer per use. */
export type LocalPlace = { workdir: string; repo: string; dataDirs?: readonly string[] };

/**
 * greenfix's own data a local command's sandbox must treat as such: the workdir and the repository's
 * object store (`objectStore` when the caller knows it already, as locateRun does: one git process fewer).
 */
export async function localDataDirs(local: { workdir: string; repo: string; objectStore?: string }): Promise<string[]> {
  return [local.workdir, local.objectStore ?? (await objectStoreOf(local.repo))];
}

/** What the sandbox sees of the user's toolchains, as one string (baseline-cache.ts keys baselines on it); undefined: nothing of theirs. */
export function toolchainEnvironment(plan: ToolchainPlan): string | undefined {
  return plan.readOnlyPaths.length > 0 ? JSON.stringify([plan.readOnlyPaths, plan.path, plan.env]) : undefined;
}

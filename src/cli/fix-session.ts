import { rmSync } from 'node:fs';
import { runFix } from '../fix/run-fix.js';
import { costOf } from '../model/cost.js';
import type { ModelPrice } from '../model/prices.js';
import type { ChatModel } from '../model/types.js';
import { refusedToolchainLine } from '../sandbox/toolchains.js';
import type { GitWorkspace } from '../workspace/git-workspace.js';
import type { Commands } from '../workspace/types.js';
import { removeWorktree } from '../workspace/worktree.js';
import { baseName, headRef } from './base-name.js';
import type { FixOptions } from './fix-options.js';
import { reportFix } from './fix-report.js';
import type { CliIo } from './io.js';
import { localCaches } from './local-caches.js';
import { localImage } from './local-image.js';
import type { LocalRun, LocalState } from './local-run.js';
import { createLocalSandbox, localDataDirs, localToolchains, toolchainEnvironment } from './local-sandbox.js';
import { localFixInput } from './local-session.js';

export interface FixSessionOptions {
  options: FixOptions;
  io: CliIo;
  run: LocalRun;
  state: LocalState;
  workspace: GitWorkspace;
  commands: Commands;
  model: ChatModel;
  price: ModelPrice | null;
  warn: (message: string) => void;
}

/**
 * `greenfix fix` once its worktree exists: the environment image, the sandbox (with the user's
 * toolchains the commands resolve to), the fix itself, the report. fix-command.ts loads this
 * module while git makes the worktree: it holds most of greenfix (sandbox, agent, gate).
 * The base's name and the caches, which need only git, are looked up while the sandbox starts.
 */
export async function fixSession(s: FixSessionOptions): Promise<number> {
  const { options, io, run, state, workspace, commands, model, price, warn } = s;
  const head = headRef(run.repo);
  const caches = localCaches(run, io, warn, head);
  caches.catch(() => undefined); // awaited below, before anything needs releasing
  const image = await localImage(io, run.workdir, workspace.root);
  // The sandbox follows the commands: the user's toolchains they resolve to are shown read-only
  // (on the host's userland: an environment image brings its own).
  const place = { ...run, dataDirs: await localDataDirs(run) };
  const toolchains = await localToolchains(io, place, commands);
  if (!image && toolchains.visible.length > 0) io.stderr(`greenfix: toolchains shown read-only: ${toolchains.visible.map((v) => `${v.path} (${v.what})`).join(', ')}`);
  // A toolchain the commands resolve to but the sandbox cannot see: said before its tests fail for want of it.
  if (!image) for (const refused of toolchains.refused) io.stderr(`greenfix: ${refusedToolchainLine(refused)}`);
  const ready = Promise.all([createLocalSandbox(io, place, toolchains), head, caches]);
  const [sandbox, branch, cacheInput] = await ready.catch((error: unknown) => {
    image?.release();
    throw error;
  });
  const jobSandbox = await sandbox.forJob({ workspace: run.worktree, image }).catch((error: unknown) => {
    image?.release();
    throw error;
  });
  const environment = toolchainEnvironment(toolchains);
  const input = localFixInput({
    options, run, state, workspace, commands, model, price, sandbox: jobSandbox, env: io.env, stderr: io.stderr, baseName: baseName(branch, workspace.baseCommit),
    ...(environment ? { environment } : {}), ...cacheInput,
  });
  const result = await runFix(input).finally(async () => {
    await jobSandbox.release();
    image?.release();
  });
  if (result.status === 'published') {
    await removeWorktree(run.repo, run.worktree);
    // The private index, scratch outputs and the kept setup state (a copy of node_modules…): the journal stays.
    rmSync(run.stateDir, { recursive: true, force: true });
  }
  return reportFix(result, run, options.json, io, costOf(result.outcome.tokens, model.name, price));
}

import { ConfigError } from '../model/config-error.js';
import { NoTestCommandError } from '../fix/fix-input.js';
import { createChatModel } from '../model/create-chat-model.js';
import { modelConfigOf } from '../model/model-config.js';
import { EnvConfigError } from '../config/env-config-error.js';
import { modelSettingsFromEnv } from '../config/model-settings.js';
import { priceOf } from '../model/prices.js';
import { SandboxConfigError, SandboxLimitError, SandboxUnavailableError } from '../sandbox/errors.js';
import { sandboxFileOwner } from '../sandbox/ownership.js';
import { checkSystemPackages } from '../sandbox/system-packages.js';
import { SetupAllowSchema } from '../config/domain-pattern.js';
import { fixCommands } from '../fix/fix-input.js';
import { StateFileError } from '../fix/state-file.js';
import { parentOfBase } from '../workspace/empty-base.js';
import { pruneWorktrees, removeWorktree, removeWorktreeFiles } from '../workspace/worktree.js';
import { existsSync, rmSync } from 'node:fs';
import * as z from 'zod';
import { rm } from 'node:fs/promises';
import { ExitCode, UsageError } from './exit-codes.js';
import { FIX_USAGE, parseFixOptions, type FixOptions } from './fix-options.js';
import type { CliIo } from './io.js';
import { locateRun, nextRun, openLocalState, openRunWorkspace, type LocalRun, type LocalState } from './local-run.js';
import { ImageError } from '../image/image-error.js';
import { workdirProblem } from './workdir-check.js';

/** `greenfix fix`: parse, run, and turn every failure into a clear message and an exit code. */
export async function fixCommand(argv: string[], io: CliIo): Promise<number> {
  // One run parses each schema once or a few times: zod's compiled fast path (generated with
  // `new Function` at a schema's first parse) costs more to make than it saves here. Same results.
  z.config({ jitless: true });
  try {
    const options = parseFixOptions(argv, io.cwd);
    if (options === 'help') {
      io.stdout(FIX_USAGE);
      return ExitCode.verified;
    }
    return await fix(options, io);
  } catch (error) {
    return reportError(error, io);
  }
}

async function fix(options: FixOptions, io: CliIo): Promise<number> {
  // What runs after the worktree (sandbox, image, agent, gate: most of greenfix's modules) loads
  // while git makes the worktree; awaited below, so a failure to load still reaches the user.
  const session = import('./fix-session.js');
  session.catch(() => undefined);
  const missing = checkSystemPackages({ env: io.env, isRoot: process.getuid?.() === 0, sandboxOff: io.env.GREENFIX_SANDBOX === 'off' });
  if (missing.length > 0) throw new UsageError(`missing system packages:\n${missing.map((m) => `  - ${m.message}`).join('\n')}`);
  const allow = SetupAllowSchema.safeParse(io.env.GREENFIX_SETUP_ALLOW ?? '');
  if (!allow.success) throw new UsageError(`GREENFIX_SETUP_ALLOW: ${allow.error.issues.map((i) => i.message).join('; ')}`);
  const modelConfig = modelConfigOf(modelSettingsFromEnv(io.env, options.model));
  // The client loads while git makes the worktree: the first request is what `fix` waits for.
  const model = createChatModel(modelConfig, {}, { loadNow: true });
  const price = priceOf(modelConfig.prices, model.name);
  const latest = await locateRun(io.env, options.repo, options.task, options.init);
  // The earlier run's worktree goes while this one's is made (a large checkout takes a while to delete).
  const { run, cleared } = options.resume ? { run: latest, cleared: Promise.resolve() } : startAfter(latest, io);
  cleared.catch(() => undefined); // awaited with the new worktree below
  const owner = sandboxFileOwner();
  const unreachable = io.env.GREENFIX_SANDBOX === 'off' ? null : workdirProblem(run.workdir, owner);
  if (unreachable) throw new UsageError(unreachable);
  const resumeFrom = options.resume ? resumable(run) : null;
  const [{ workspace, state }] = await Promise.all([openRunWorkspace(run, resumeFrom), cleared]);
  if (run !== latest) await pruneWorktrees(run.repo); // the earlier run's worktree, once the new one exists (removeWorktreeFiles)
  const warn = (message: string) => io.stderr(`greenfix: warning: ${message}`);
  const commands = fixCommands(workspace.root, state.get('fix'), { verify: options.verify, setup: options.setup }, warn);
  const base = parentOfBase(workspace.baseCommit) === null ? 'the empty tree (the repository has no commits)' : workspace.baseCommit.slice(0, 12);
  if (!commands.verify) {
    // Nothing could be verified: stop before setup and the model, and leave nothing behind.
    await removeWorktree(run.repo, run.worktree);
    rmSync(run.dir, { recursive: true, force: true });
    throw new NoTestCommandError();
  }
  io.stderr(`greenfix: worktree ${run.worktree} at ${base}; verify: ${commands.verify}; setup: ${commands.setup ?? '(none)'}`);
  return (await session).fixSession({ options, io, run, state, workspace, commands, model, price, warn });
}

/** `--resume`: the saved run of this task, which must exist (a damaged one is an error). */
function resumable(run: LocalRun): LocalState {
  const state = openLocalState(run);
  if (!state.get('fix')) throw new UsageError(`nothing to resume: no interrupted run of this task in ${run.dir}`);
  return state;
}

/**
 * A fresh run gets a directory (and branch) of its own after the task's latest run, whose journal
 * and state stay for `greenfix log`; its worktree and private index go (a finished run's are gone
 * already): `cleared`, while the caller makes the new worktree, which then prunes the old one.
 * Says so when that run was interrupted (or unreadable): only the latest run resumes.
 */
function startAfter(latest: LocalRun, io: CliIo): { run: LocalRun; cleared: Promise<void> } {
  if (!existsSync(latest.dir)) return { run: latest, cleared: Promise.resolve() };
  let interrupted: boolean;
  try {
    const earlier = openLocalState(latest).get('fix');
    interrupted = earlier !== undefined && !earlier.published;
  } catch (error) {
    if (!(error instanceof StateFileError)) throw error;
    interrupted = true;
  }
  const cleared = removeWorktreeFiles(latest.worktree).then(() => rm(latest.stateDir, { recursive: true, force: true }));
  const next = nextRun(latest);
  if (interrupted) io.stderr(`greenfix: an interrupted run of this task stays in ${latest.dir} (its log); this one starts afresh in ${next.dir} (--resume continues the latest run instead)`);
  return { run: next, cleared };
}

/** A failure as one clear line and its exit code (usage/config 2, anything else 3). */
export function reportError(error: unknown, io: CliIo): number {
  if (error instanceof SandboxLimitError) {
    io.stderr(`greenfix: stopped: ${error.message}`);
    return ExitCode.notVerified;
  }
  if (error instanceof NoTestCommandError) {
    io.stderr(`greenfix: ${error.message}. Give one: greenfix fix --verify 'npm test' … (or \`verify:\` in .github/greenfix.yml)`);
    return ExitCode.usage;
  }
  if (error instanceof ImageError) {
    io.stderr(`greenfix: the environment image could not be used: ${error.message}`);
    // A registry that did not answer is infrastructure; a refused or misnamed image is configuration.
    return error.reason === 'pull-failed' ? ExitCode.failure : ExitCode.usage;
  }
  const usage = [UsageError, ConfigError, EnvConfigError, SandboxConfigError, SandboxUnavailableError, StateFileError];
  if (usage.some((type) => error instanceof type)) {
    io.stderr(`greenfix: ${(error as Error).message}`);
    return ExitCode.usage;
  }
  io.stderr(`greenfix: failed: ${error instanceof Error ? error.message : String(error)}`);
  return ExitCode.failure;
}

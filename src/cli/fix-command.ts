import { createCrashPoints } from '../agent/crash-points.js';
import { createTools } from '../agent/tools/registry.js';
import { ConfigError } from '../model/config-error.js';
import { createChatModel } from '../model/create-chat-model.js';
import { modelConfigFromEnv } from '../model/model-config.js';
import { createSandbox } from '../sandbox/create-sandbox.js';
import { SandboxConfigError, SandboxUnavailableError } from '../sandbox/errors.js';
import { sandboxFileOwner } from '../sandbox/ownership.js';
import { checkSystemPackages } from '../sandbox/system-packages.js';
import { localPublisher } from '../run/local-publisher.js';
import { loadRunState } from '../run/run-state.js';
import { runFix } from '../run/run-fix.js';
import { detectCommands } from '../workspace/detect-commands.js';
import { removeWorktree } from '../workspace/worktree.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { FIX_CONTEXT, FIX_TOOL_LIMITS, SETUP_TIMEOUT_MS } from '../run/defaults.js';
import { FIX_USAGE, parseFixOptions, type FixOptions } from './fix-options.js';
import { reportFix } from './fix-report.js';
import type { CliIo } from './io.js';
import { locateRun, openRunWorkspace } from './local-run.js';
import { readAgentsMd } from '../run/agents-md.js';
import { baselineCacheDir } from '../run/baseline-cache.js';
import { baseName } from './base-name.js';
import { formatEvent } from './progress.js';

/** `greenfix fix`: parse, run, and turn every failure into a clear message and an exit code. */
export async function fixCommand(argv: string[], io: CliIo): Promise<number> {
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
  const missing = checkSystemPackages({ env: io.env, isRoot: process.getuid?.() === 0, sandboxOff: io.env.GREENFIX_SANDBOX === 'off' });
  if (missing.length > 0) throw new UsageError(`missing system packages:\n${missing.map((m) => `  - ${m.message}`).join('\n')}`);
  const env = { ...io.env, ...(options.model ? { GREENFIX_MODEL: options.model } : {}) };
  const model = createChatModel(modelConfigFromEnv(env));
  const sandbox = await createSandbox({ env: io.env, log: (level, message) => io.stderr(`greenfix: ${level}: ${message}`) });
  const run = await locateRun(io.env, options.repo, options.task);
  const owner = sandboxFileOwner();
  const earlier = loadRunState(run.state);
  if (earlier && !earlier.published && !options.resume) {
    io.stderr(`greenfix: discarding an interrupted run of this task (use --resume to continue one)`);
  }
  const saved = options.resume ? earlier : null;
  const workspace = await openRunWorkspace(run, saved, options.resume, owner);
  const commands = saved?.commands ?? detectCommands(workspace.root, { verify: options.verify, setup: options.setup });
  io.stderr(`greenfix: worktree ${run.worktree} at ${workspace.baseCommit.slice(0, 12)}; verify: ${commands.verify ?? '(none)'}; setup: ${commands.setup ?? '(none)'}`);

  const result = await runFix(
    {
      workspace,
      sandbox,
      publisher: localPublisher(run.repo, run.branch),
      paths: { journal: run.journal, state: run.state },
      crashPoints: createCrashPoints(io.env),
      setupTimeoutMs: SETUP_TIMEOUT_MS,
      agentsMd: readAgentsMd(workspace.root),
      tests: { mode: options.verifyMode, cacheDir: baselineCacheDir(run.workdir), timeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, where: await baseName(run.repo, workspace.baseCommit) },
      onPhase: (phase, detail) => io.stderr(`greenfix: ${phase}: ${detail}`),
      onBaseline: (line, cached) => io.stderr(`greenfix: baseline ${line}${cached ? ' (cached: not run again)' : ''}`),
      agent: {
        model,
        tools: createTools(),
        toolContext: {
          workspace,
          sandbox,
          verifyCommand: commands.verify,
          fileOwner: owner,
          limits: FIX_TOOL_LIMITS,
        },
        budget: { maxSteps: options.maxSteps, maxTokens: options.maxTokens, maxWallMs: options.timeoutMinutes * 60_000 },
        context: { ...FIX_CONTEXT, maxTokens: options.contextTokens },
        now: Date.now,
        onEvent: (event) => {
          const line = formatEvent(event);
          if (line) io.stderr(line);
        },
        config: { maxSteps: options.maxSteps, maxTokens: options.maxTokens, verify: commands.verify, setup: commands.setup },
      },
    },
    { version: 1, task: options.task, baseCommit: workspace.baseCommit, createdAt: Date.now(), commands },
  );
  if (result.status === 'published') await removeWorktree(run.repo, run.worktree);
  return reportFix(result, run, options.json, io);
}

function reportError(error: unknown, io: CliIo): number {
  const usage = [UsageError, ConfigError, SandboxConfigError, SandboxUnavailableError];
  if (usage.some((type) => error instanceof type)) {
    io.stderr(`greenfix: ${(error as Error).message}`);
    return ExitCode.usage;
  }
  io.stderr(`greenfix: failed: ${error instanceof Error ? error.message : String(error)}`);
  return ExitCode.failure;
}

import { localImage } from './local-image.js';
import { mkdirSync, realpathSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { openJournal, readJournal } from '../agent/journal.js';
import { systemPrompt } from '../agent/prompt.js';
import { replayJournal } from '../agent/resume-replay.js';
import { emptyAgentState } from '../agent/state.js';
import { executeToolCall } from '../agent/tools/registry.js';
import { DEFAULT_BUDGETS } from '../config/budget-defaults.js';
import { assembleFix } from '../fix/assemble-fix.js';
import { fixCommands } from '../fix/fix-input.js';
import { localPublisher } from '../fix/local-publisher.js';
import { createChatModel } from '../model/create-chat-model.js';
import { modelConfigOf } from '../model/model-config.js';
import { modelSettingsFromEnv } from '../config/model-settings.js';
import { sandboxFileOwner } from '../sandbox/ownership.js';
import { checkSystemPackages } from '../sandbox/system-packages.js';
import { git } from '../workspace/git.js';
import { createLocalSandbox, localToolchains } from './local-sandbox.js';
import { approvingExecutor } from './approvals.js';
import { CHAT_USAGE, parseChatOptions, type ChatOptions } from './chat-options.js';
import { chatRepl } from './chat-repl.js';
import { type ChatTerminal } from './io.js';
import type { ChatSession } from './chat-session.js';
import { crashWrappers } from './crash-wrappers.js';
import { ExitCode, UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { locateRun, openLocalState, openRunWorkspace } from './local-run.js';
import { formatEvent } from './progress.js';
import { taskSlug } from './slug.js';
import { workdirProblem } from './workdir-check.js';

/** `greenfix chat` (and bare `greenfix` on a terminal): an interactive session. */
export async function chatCommand(argv: string[], io: CliIo, terminal: ChatTerminal): Promise<number> {
  const options = parseChatOptions(argv, io.cwd);
  if (options === 'help') {
    io.stdout(CHAT_USAGE);
    return ExitCode.verified;
  }
  return chat(options, io, terminal);
}

/** The session journal's default: `<git common dir>/greenfix/chat.jsonl`, beside the repository's own data. */
async function defaultSessionPath(repo: string): Promise<string> {
  const common = resolve(repo, (await git(['rev-parse', '--git-common-dir'], { cwd: repo })).trim());
  return join(realpathSync(common), 'greenfix', 'chat.jsonl');
}

async function chat(options: ChatOptions, io: CliIo, terminal: ChatTerminal): Promise<number> {
  const missing = checkSystemPackages({ env: io.env, isRoot: process.getuid?.() === 0, sandboxOff: io.env.GREENFIX_SANDBOX === 'off' });
  if (missing.length > 0) throw new UsageError(`missing system packages:\n${missing.map((m) => `  - ${m.message}`).join('\n')}`);
  const settings = modelSettingsFromEnv(io.env, options.model);
  const modelFor = (name: string) => createChatModel(modelConfigOf({ ...settings, model: name }));
  const model = createChatModel(modelConfigOf(settings));
  const run = await locateRun(io.env, options.repo, 'chat session', options.init);
  const owner = sandboxFileOwner();
  const unreachable = io.env.GREENFIX_SANDBOX === 'off' ? null : workdirProblem(run.workdir, owner);
  if (unreachable) throw new UsageError(unreachable);

  const journalPath = options.session ?? (await defaultSessionPath(run.repo));
  mkdirSync(dirname(journalPath), { recursive: true, mode: 0o700 });
  const records = readJournal(journalPath);
  const saved = records.length > 0 ? openLocalState(run) : null;
  const { workspace, state } = await openRunWorkspace(run, saved?.get('fix') ? saved : null);
  const image = await localImage(io, run.workdir, workspace.root);
  const warn = (message: string) => io.stderr(`greenfix: warning: ${message}`);
  const commands = fixCommands(workspace.root, state.get('fix'), { verify: options.verify, setup: undefined }, warn);
  // The sandbox follows the commands: the user's toolchains they resolve to are shown read-only.
  const sandbox = await createLocalSandbox(io, run, await localToolchains(io, run, commands));
  const jobSandbox = await sandbox.forJob({ workspace: run.worktree, image }).catch((error: unknown) => {
    image?.release();
    throw error;
  });
  const fixStore = state.fixStore();
  if (!fixStore.get()) fixStore.set({ task: 'chat session', baseCommit: workspace.baseCommit, createdAt: Date.now(), commands: { ...commands, setup: null } });
  const runState = fixStore.get()!;

  const wrap = crashWrappers(io.env);
  const assembled = assembleFix({
    workspace,
    commands: runState.commands,
    budgets: { maxSteps: options.maxSteps, maxTokens: DEFAULT_BUDGETS.maxTokens, timeoutMinutes: DEFAULT_BUDGETS.timeoutMinutes, contextTokens: options.contextTokens },
    model,
    sandbox: jobSandbox,
    publisher: localPublisher(run.repo, run.branch),
    state: fixStore,
    journal: journalPath,
    wrap,
    instructions: null,
    warn,
    now: Date.now,
    onEvent: (event) => {
      const line = event.type === 'agent' ? formatEvent(event.event) : null;
      if (line) io.stdout(line);
    },
  });
  const ask = new Set(options.yes ? [] : options.approve);
  const session: ChatSession = {
    deps: { ...assembled.agent, execute: executeToolCall },
    journal: wrap.journal(openJournal(journalPath)),
    state: records.length > 0 ? replayJournal(records) : emptyAgentState(),
    workspace,
    systemPrompt: systemPrompt(assembled.agentsMd, runState.commands.verify),
    limits: { maxSteps: options.maxSteps, maxTokens: DEFAULT_BUDGETS.maxTokens, maxWallMs: DEFAULT_BUDGETS.timeoutMinutes * 60_000 },
    snapshots: [],
    turns: turnsOf(records),
    stop: jobSandbox.signal,
  };
  io.stdout(
    `greenfix chat: worktree ${run.worktree}; verify: ${runState.commands.verify ?? '(none)'}; session ${journalPath}` +
      (records.length > 0 ? ` (resumed: ${session.turns.length} earlier request(s))` : ''),
  );
  try {
    return await chatRepl({
      session,
      terminal,
      io,
      approvals: (prompt) =>
        approvingExecutor(executeToolCall, {
          ask,
          prompt,
          named: (path) => session.turns.some((t) => t.text.includes(path)) || (session.state.messages[1]?.content ?? '').includes(path),
          warn: io.stderr,
        }),
      commands: {
        session,
        repo: run.repo,
        baseCommit: runState.baseCommit,
        createdAt: runState.createdAt,
        publisher: (first) => localPublisher(run.repo, `greenfix/${taskSlug(first)}`),
        model: modelFor,
        fileOwner: jobSandbox.owner,
        clear: () => {
          session.journal.close();
          renameSync(journalPath, `${journalPath}.${Date.now()}`);
          session.journal = wrap.journal(openJournal(journalPath));
          session.state = emptyAgentState();
          session.snapshots = [];
          session.turns = [];
        },
        out: io.stdout,
        cwd: io.cwd,
      },
    });
  } finally {
    session.journal.close();
    await jobSandbox.release();
    image?.release();
  }
}

/** The requests of a resumed session and how each ended, from its journal. */
function turnsOf(records: ReturnType<typeof readJournal>): ChatSession['turns'] {
  const turns: ChatSession['turns'] = [];
  for (const r of records) {
    if (r.type === 'start') turns.push({ text: r.task, outcome: 'interrupted' });
    if (r.type === 'turn') turns.push({ text: r.text, outcome: 'interrupted' });
    const last = turns.at(-1);
    if (r.type === 'finish' && last) last.outcome = `${r.outcome.status}: ${r.outcome.summary ?? r.outcome.reason}`;
  }
  return turns;
}

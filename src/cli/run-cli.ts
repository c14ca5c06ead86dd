import { ExitCode } from './exit-codes.js';
import { chatCommand } from './chat-command.js';
import { fixCommand, reportError } from './fix-command.js';
import { logCommand } from './log-command.js';
import { serveCommand } from './serve-command.js';
import type { CliIo } from './io.js';

export type { CliIo } from './io.js';

const HELP = `greenfix — commit only what the repository's own tests passed

Usage:
  greenfix fix --repo DIR --task TEXT [options]   fix a local repository (greenfix fix --help)
  greenfix chat --repo DIR [options]              an interactive session (greenfix chat --help);
                                                  bare \`greenfix\` on a terminal starts one in .
  greenfix log JOURNAL | --run DIR [--format F]   what a run did, step by step (greenfix log --help)
  greenfix serve                                  run the GitHub App: webhook server and workers
  greenfix worker                                 run workers only (scale-out)
  greenfix --help                                 this help

Model endpoint (any OpenAI-compatible /chat/completions):
  OPENAI_BASE_URL, OPENAI_API_KEY, GREENFIX_MODEL`;

/** Dispatches a subcommand and returns the process exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined && io.terminal?.input.isTTY && io.terminal.output.isTTY) return chat([], io);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(HELP);
    return ExitCode.verified;
  }
  if (command === 'fix') return fixCommand(rest, io);
  if (command === 'chat') return chat(rest, io);
  if (command === 'log') return logCommand(rest, io);
  if (command === 'serve') return serveCommand(rest, io);
  if (command === 'worker') return serveCommand(rest, io, 'worker');
  io.stderr(`greenfix: unknown command '${command}'\n\n${HELP}`);
  return ExitCode.usage;
}

function chat(argv: string[], io: CliIo): Promise<number> {
  if (!io.terminal) {
    io.stderr('greenfix: chat needs a terminal or piped input');
    return Promise.resolve(ExitCode.usage);
  }
  return chatCommand(argv, io, io.terminal).catch((error: unknown) => reportError(error, io));
}

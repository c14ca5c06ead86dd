import { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { startProcessHost } from '../util/run-process.js';


const HELP = `greenfix — commit only what the repository's own tests passed

Usage:
  greenfix fix --repo DIR --task TEXT [options]   fix a local repository (greenfix fix --help)
  greenfix doctor --repo DIR                      can greenfix work here? setup + tests on HEAD (greenfix doctor --help)
  greenfix chat --repo DIR [options]              an interactive session (greenfix chat --help);
                                                  bare \`greenfix\` on a terminal starts one in .
  greenfix log [JOURNAL | --run DIR] [--format F] what a run did (default: the latest), step by step (greenfix log --help)
  greenfix stats [--since 30d] [--json]           spend, PRs opened and merged, cost per merged PR (greenfix stats --help)
  greenfix eval mine|run|--compare …              how well greenfix fixes past issues of a repository, at what cost (greenfix eval --help)
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
  // The commands that start processes at once (git, the sandbox) have the process host boot while they load.
  if (['fix', 'doctor', 'eval'].includes(command)) startProcessHost();
  // Each command loads only its own modules: `fix` never loads Probot, BullMQ or prom-client.
  if (command === 'fix') return (await import('./fix-command.js')).fixCommand(rest, io);
  if (command === 'doctor') return (await import('./doctor-command.js')).doctorCommand(rest, io);
  if (command === 'chat') return chat(rest, io);
  if (command === 'log') return (await import('./log-command.js')).logCommand(rest, io);
  if (command === 'eval') return (await import('./eval-command.js')).evalCommand(rest, io);
  if (command === 'stats') return (await import('./stats-command.js')).statsCommand(rest, io);
  if (command === 'serve') return (await import('./serve-command.js')).serveCommand(rest, io);
  if (command === 'worker') return (await import('./serve-command.js')).serveCommand(rest, io, 'worker');
  io.stderr(`greenfix: unknown command '${command}'\n\n${HELP}`);
  return ExitCode.usage;
}

async function chat(argv: string[], io: CliIo): Promise<number> {
  if (!io.terminal) {
    io.stderr('greenfix: chat needs a terminal or piped input');
    return ExitCode.usage;
  }
  startProcessHost();
  const [{ chatCommand }, { reportError }] = await Promise.all([import('./chat-command.js'), import('./fix-command.js')]);
  return chatCommand(argv, io, io.terminal).catch((error: unknown) => reportError(error, io));
}

import { createInterface } from 'node:readline';
import type { ExecuteToolCall } from '../agent/types.js';
import { runCommand, type CommandContext } from './chat-commands.js';
import { runTurn, type ChatSession } from './chat-session.js';
import { ExitCode } from './exit-codes.js';
import type { ChatTerminal, CliIo } from './io.js';


export interface ReplParts {
  session: ChatSession;
  terminal: ChatTerminal;
  io: CliIo;
  /** The dispatcher with approvals; `prompt` null when nobody can answer (no terminal). */
  approvals: (prompt: ((question: string) => Promise<string>) | null) => ExecuteToolCall;
  commands: CommandContext;
}

/**
 * The prompt loop: each line is a request (a turn of the one session) or a slash command, handled
 * one at a time in order. Ctrl-C stops the running request; at the prompt, a second one exits.
 * On a real terminal readline edits the line; with TERM=dumb or no TTY it reads plain lines and
 * writes no colours or cursor movement.
 */
export function chatRepl(parts: ReplParts): Promise<number> {
  const { session, terminal, io } = parts;
  const tty = Boolean(terminal.input.isTTY && terminal.output.isTTY);
  const fancy = tty && io.env.TERM !== 'dumb';
  const rl = createInterface({ input: terminal.input, output: terminal.output, terminal: fancy });
  rl.setPrompt(fancy ? '\x1b[1mgreenfix>\x1b[0m ' : 'greenfix> ');
  const ask = tty ? (q: string) => new Promise<string>((done) => rl.question(q, done)) : null;
  session.deps = { ...session.deps, execute: parts.approvals(ask) };

  const queue: string[] = [];
  let busy = false;
  let closed = false;
  let armed = false;
  let running: AbortController | null = null;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((done) => (finish = done));

  const interrupt = () => {
    if (running) {
      running.abort();
      io.stdout('^C: stopping the request…');
      return;
    }
    if (armed) return end();
    armed = true;
    io.stdout('(press Ctrl-C again to exit, or type /exit)');
    rl.prompt();
  };
  const unsubscribe = terminal.onSignal(interrupt);
  rl.on('SIGINT', interrupt);
  const end = () => {
    unsubscribe();
    closed = true;
    rl.close();
    finish(ExitCode.verified);
  };

  const pump = async () => {
    if (busy) return;
    busy = true;
    try {
      for (let line = queue.shift(); line !== undefined; line = queue.shift()) {
        const text = line.trim();
        if (text === '') continue;
        if (text.startsWith('/')) {
          if ((await runCommand(text, parts.commands)) === 'exit') return end();
          continue;
        }
        running = new AbortController();
        try {
          const result = await runTurn(session, text, running.signal);
          if (result.kind === 'interrupted') io.stdout('request stopped; the journal notes it. Type the next request.');
          else io.stdout(`→ ${result.outcome.status}: ${result.outcome.summary ?? result.outcome.reason}`);
        } finally {
          running = null;
        }
      }
    } catch (error) {
      io.stderr(`greenfix: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      busy = false;
    }
    if (closed) return finish(ExitCode.verified);
    rl.prompt();
  };

  rl.on('line', (line) => {
    armed = false;
    queue.push(line);
    void pump();
  });
  rl.on('close', () => {
    closed = true;
    if (!busy) finish(ExitCode.verified);
  });
  rl.prompt();
  return finished.finally(unsubscribe);
}

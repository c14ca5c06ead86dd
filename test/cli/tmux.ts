import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';

/**
 * A real pseudo-terminal: a tmux server on its own socket (never the user's), one window running
 * `command`. `waitFor` polls the screen until a pattern shows, with a deadline.
 */
export interface Tty {
  send(...keys: string[]): void;
  /** Types `text` and Enter. */
  line(text: string): void;
  screen(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  panePid(): number;
  /** Resolves once the program in the window has ended (tmux's pane_dead), with a deadline. */
  waitForExit(timeoutMs?: number): Promise<void>;
  kill(): void;
}

export function startTty(command: string, env: Record<string, string>): Tty {
  const socket = `greenfix-test-${randomUUID().slice(0, 8)}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', ...env } });
  tmux('new-session', '-d', '-s', 'main', '-x', '200', '-y', '60', command);
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  tmux('set-option', '-t', 'main', 'history-limit', '20000');
  const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-20000', '-t', 'main');
  return {
    send: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    line: (text) => {
      tmux('send-keys', '-t', 'main', '-l', text);
      tmux('send-keys', '-t', 'main', 'Enter');
    },
    screen,
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} on the terminal:\n${text}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async waitForExit(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (tmux('display-message', '-p', '-t', 'main', '#{pane_dead}').trim() !== '1') {
        if (Date.now() > deadline) throw new Error(`timed out waiting for the program to end:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    panePid: () => Number(tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim()),
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        /* already gone */
      }
    },
  };
}

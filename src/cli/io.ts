import type { ChatTerminal } from './chat-repl.js';

/** What a CLI command may touch of its process: passed in, so tests run commands in-process. */
export interface CliIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** The process's terminal, for `greenfix chat`; absent in-process (tests of other commands). */
  terminal?: ChatTerminal;
}

/** What a CLI command may touch of its process: passed in, so tests run commands in-process. */
export interface CliIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** The process's terminal, for `greenfix chat`; absent in-process (tests of other commands). */
  terminal?: ChatTerminal;
}

/** The process's terminal (or pipe): passed in, so the session is testable in a pseudo-terminal. */
export interface ChatTerminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where a second Ctrl-C at the prompt, or a Ctrl-C in a dumb terminal, arrives. */
  onSignal: (handler: () => void) => () => void;
}

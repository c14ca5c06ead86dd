/**
 * The `/agent …` comment commands. A command is the first thing in the comment (leading whitespace
 * allowed), `/agent` as a whole word in any case, then the command word on the same line. A quoted
 * (`> /agent retry`) or fenced command is not one: people quote commands when they talk about them.
 */

export const MAX_INSTRUCTIONS_CHARS = 10_000;

export type AgentCommand =
  | { kind: 'retry'; instructions?: string }
  | { kind: 'cancel' }
  /** The readiness check: setup and tests on the default branch, answered in a comment. */
  | { kind: 'doctor' }
  /** `/agent` followed by nothing or by a word that is not a command; `word` is sanitised for display. */
  | { kind: 'unknown'; word: string };

const PREFIX = /^\/agent(?=\s|$)/i;
const COMMAND_WORD = /^[ \t]+(\S+)/;

/** The command in a comment body, or undefined when the comment is not addressed to greenfix. */
export function parseAgentCommand(body: string): AgentCommand | undefined {
  const text = body.trimStart();
  const prefix = PREFIX.exec(text);
  if (!prefix) return undefined;
  const afterPrefix = text.slice(prefix[0].length);
  const word = COMMAND_WORD.exec(afterPrefix);
  if (!word) return { kind: 'unknown', word: '' };
  const name = word[1]!.toLowerCase();
  const rest = afterPrefix.slice(word[0].length);
  if (name === 'cancel') return { kind: 'cancel' };
  if (name === 'doctor') return { kind: 'doctor' };
  if (name === 'retry') return retry(rest);
  return { kind: 'unknown', word: displayable(word[1]!) };
}

function retry(rest: string): AgentCommand {
  const instructions = rest.trim();
  if (instructions === '') return { kind: 'retry' };
  if (instructions.length <= MAX_INSTRUCTIONS_CHARS) return { kind: 'retry', instructions };
  const cut = instructions.slice(0, MAX_INSTRUCTIONS_CHARS);
  return {
    kind: 'retry',
    instructions: `${cut}\n\n[greenfix: the instructions were cut at ${MAX_INSTRUCTIONS_CHARS} characters of ${instructions.length}]`,
  };
}

/** The word is echoed inside a code span (no mentions or links render there): no backticks, short. */
function displayable(word: string): string {
  return word.replace(/[`\p{Cc}]/gu, '').slice(0, 30);
}

/** The answer to an unknown command: what exists and what it does. */
export function agentCommandHelp(word: string): string {
  const what = word === '' ? 'That `/agent` comment has no command.' : `I don't know the command \`/agent ${word}\`.`;
  return [
    `${what} These are the commands I understand, at the start of a comment:`,
    '',
    '- `/agent retry [instructions]`: run the fix again, with optional extra instructions (they may span several lines).',
    '- `/agent cancel`: stop the job running or waiting for this issue or pull request.',
    '- `/agent doctor`: check whether greenfix can work on this repository (setup and tests on the default branch).',
  ].join('\n');
}

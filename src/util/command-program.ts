/** What a shell command starts: its leading `VAR=value` assignments, verbatim, and the program. */
export interface CommandProgram {
  /** The assignment words before the program (`PATH="$HOME/.cargo/bin:$PATH"`), as written. */
  assignments: string[];
  /** The program's name (`cargo`); only plain names: a path or an expansion is not looked up. */
  program: string;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const PLAIN_NAME = /^[A-Za-z0-9._+-]+$/;

/**
 * The program a command starts (`npm test` → npm; `PATH="$PWD/bin:$PATH" cargo test` → cargo with
 * that assignment), or null when it cannot tell (a path, an expansion, unbalanced quotes). Words are
 * split as the shell does at the top level: whitespace outside quotes; quotes and escapes kept.
 */
export function commandProgram(command: string): CommandProgram | null {
  const assignments: string[] = [];
  for (const word of shellWords(command) ?? []) {
    if (ASSIGNMENT.test(word)) {
      assignments.push(word);
      continue;
    }
    return PLAIN_NAME.test(word) ? { assignments, program: word } : null;
  }
  return null;
}

/** The leading words of `command`, split at unquoted whitespace; null if a quote is left open. */
function shellWords(command: string): string[] | null {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === '\\' && quote === '"' && i + 1 < command.length) word += c + command[++i]!;
      else {
        if (c === quote) quote = null;
        word += c;
      }
    } else if (c === '\\' && i + 1 < command.length) word += c + command[++i]!;
    else if (c === '"' || c === "'") {
      quote = c;
      word += c;
    } else if (/\s/.test(c)) {
      if (word) words.push(word);
      word = '';
    } else word += c;
  }
  if (quote) return null;
  if (word) words.push(word);
  return words;
}

/** Shell words that cannot be a program to look up. */
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'in', 'function', 'time', 'exec', 'env', 'sudo', 'true', 'false']);

/** A word of a command that may name a program; `leading` when it starts a simple command (so it must exist). */
export interface CommandWord {
  word: string;
  leading: boolean;
}

/**
 * The words of shell commands that may name a program: every bare word (no `/`, no `$`, not an
 * option or an assignment), in order, once. Deliberately generous: `python -m pytest` names both
 * `python` and `pytest`, `bash test.sh` only `bash`; a word that is not a program is simply not found.
 */
export function commandWords(commands: readonly string[]): CommandWord[] {
  const words = new Map<string, boolean>();
  for (const command of commands) {
    for (const part of command.split(/&&|\|\||[;|\n()`]/)) {
      let leading = true;
      for (const raw of part.trim().split(/[\s<>]+/)) {
        const word = raw.replace(/^['"]|['"]$/g, '');
        if (leading && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
        const first = leading;
        leading = false;
        if (!/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(word) || KEYWORDS.has(word) || /^\d+$/.test(word)) {
          if (KEYWORDS.has(word)) leading = true;
          continue;
        }
        words.set(word, (words.get(word) ?? false) || first);
      }
    }
  }
  return [...words].map(([word, leading]) => ({ word, leading }));
}

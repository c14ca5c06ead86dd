import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A shell command shown in a Markdown file: where, and the command (continuation lines joined, comment gone). */
export interface DocCommand {
  file: string;
  line: number;
  command: string;
}

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);

/** The README and every page under docs/, relative to `root`. */
export function docFiles(root: string): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** The commands of the shell code blocks (```sh, bash, shell; in ```console only `$ ` lines). */
export function docCommands(root: string, file: string): DocCommand[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const found: DocCommand[] = [];
  let lang: string | null = null;
  let pending: { line: number; text: string } | null = null;
  lines.forEach((raw, i) => {
    const fence = /^\s*```(\w*)\s*$/.exec(raw);
    if (fence) {
      lang = lang === null ? fence[1] ?? '' : null;
      return;
    }
    if (lang === null || !SHELL.has(lang)) return;
    let text = raw.trim();
    if (lang === 'console') {
      if (!text.startsWith('$ ')) return;
      text = text.slice(2);
    }
    const joined = pending ? `${pending.text} ${text}` : text;
    const start = pending?.line ?? i + 1;
    if (joined.endsWith('\\')) {
      pending = { line: start, text: joined.slice(0, -1).trim() };
      return;
    }
    pending = null;
    const command = stripComment(joined).trim();
    if (command) found.push({ file, line: start, command });
  });
  return found;
}

/** The command without a trailing `# comment` (a `#` outside quotes, after whitespace). */
function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i);
  }
  return text;
}

import { createRequire } from 'node:module';
import { extname } from 'node:path';
import type ts from 'typescript';

/**
 * TypeScript takes seconds to load; most runs edit no script file. Loaded on first use, once per
 * process (the module cache keeps it), so the CLI starts fast.
 */
const loadTypeScript = (): typeof ts => createRequire(import.meta.url)('typescript') as typeof ts;

export interface SyntaxProblem {
  line: number;
  column: number;
  message: string;
}

const SCRIPT_KINDS: Record<string, keyof typeof ts.ScriptKind> = {
  '.ts': 'TS',
  '.mts': 'TS',
  '.cts': 'TS',
  '.tsx': 'TSX',
  '.js': 'JS',
  '.mjs': 'JS',
  '.cjs': 'JS',
  '.jsx': 'JSX',
};

/** `parseDiagnostics` is internal to TypeScript but has been stable for years; typed narrowly here. */
interface ParsedSource {
  parseDiagnostics?: readonly ts.Diagnostic[];
}

function scriptProblem(name: string, text: string, kind: keyof typeof ts.ScriptKind): SyntaxProblem | null {
  const ts = loadTypeScript();
  const sf = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind[kind]);
  const [first] = (sf as unknown as ParsedSource).parseDiagnostics ?? [];
  if (!first) return null;
  const { line, character } = sf.getLineAndCharacterOfPosition(first.start ?? 0);
  return { line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(first.messageText, ' ') };
}

function jsonProblem(text: string): SyntaxProblem | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    // V8 says "at position N" for most errors; at the very end of the text it does not.
    const pos = Number(/position (\d+)/.exec((e as Error).message)?.[1] ?? text.length);
    const before = text.slice(0, pos).split('\n');
    return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1, message: (e as Error).message };
  }
}

/** The first parse error of a file we know how to parse, or null (also for other file types). */
export function syntaxProblem(path: string, text: string): SyntaxProblem | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return jsonProblem(text);
  const kind = SCRIPT_KINDS[ext];
  return kind === undefined ? null : scriptProblem(path, text, kind);
}

/**
 * Refuses a change that breaks the syntax of a file that parsed before (`before` null = new file).
 * An already broken file may be edited: the model may be in the middle of fixing it.
 * Returns the refusal message, or null when the change may be written.
 */
export function guardSyntax(rel: string, before: string | null, after: string): string | null {
  const problem = syntaxProblem(rel, after);
  if (!problem || (before !== null && syntaxProblem(rel, before))) return null;
  const what = before === null ? 'the new file' : 'this edit';
  return `rejected: ${what} would make ${rel} unparsable (line ${problem.line}, column ${problem.column}: ${problem.message}); the file is unchanged. Fix the text and try again.`;
}

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { extname } from 'node:path';

export interface SyntaxProblem {
  line: number;
  column: number;
  message: string;
}

type ScriptKind = 'TS' | 'TSX' | 'JS' | 'JSX';

const SCRIPT_KINDS: Record<string, ScriptKind> = {
  '.ts': 'TS',
  '.mts': 'TS',
  '.cts': 'TS',
  '.tsx': 'TSX',
  '.js': 'JS',
  '.mjs': 'JS',
  '.cjs': 'JS',
  '.jsx': 'JSX',
};

/** The parse has seconds to finish; its answer is a few hundred bytes. Past either cap the guard lets the edit through. */
const PARSE_TIMEOUT_MS = 15_000;
const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Runs in a short-lived `node` child: TypeScript's parser costs ~46 MB of heap, which the worker would
 * otherwise hold for the rest of its life after the first script edit. Reads {path, kind, texts} on
 * stdin, writes one problem (or null) per text. It parses only: nothing of the text is executed.
 * `parseDiagnostics` is internal to TypeScript but has been stable for years.
 */
const CHILD_SCRIPT = `
const ts = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const { path, kind, texts } = JSON.parse(input);
  const problems = texts.map((text) => {
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind[kind]);
    const first = (sf.parseDiagnostics || [])[0];
    if (!first) return null;
    const { line, character } = sf.getLineAndCharacterOfPosition(first.start || 0);
    return { line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(first.messageText, ' ') };
  });
  process.stdout.write(JSON.stringify(problems));
});
`;

/** Where greenfix's own TypeScript lives (resolving loads nothing). */
const typescriptPath = (): string => createRequire(import.meta.url).resolve('typescript');

/**
 * The first parse error of each text, or null each; null for all when the parser could not answer
 * (crash, timeout, oversized output): the guard is a courtesy to the model, the tests still decide.
 */
function scriptProblems(path: string, kind: ScriptKind, texts: string[]): Promise<(SyntaxProblem | null)[]> {
  const none = texts.map(() => null);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=256', '-e', CHILD_SCRIPT, typescriptPath()], {
      cwd: '/',
      env: {},
      stdio: ['pipe', 'pipe', 'ignore'],
      timeout: PARSE_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stdin.on('error', () => undefined); // a child that died early: 'close' reports it
    child.on('error', () => resolve(none));
    child.on('close', (code) => {
      if (code !== 0 || size > MAX_OUTPUT_BYTES) return resolve(none);
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        resolve(Array.isArray(parsed) && parsed.length === texts.length ? (parsed as (SyntaxProblem | null)[]) : none);
      } catch {
        resolve(none);
      }
    });
    child.stdin.end(JSON.stringify({ path, kind, texts }));
  });
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

/** The first parse error of each text of a file we know how to parse, or null each (also for other file types). */
async function syntaxProblems(path: string, texts: string[]): Promise<(SyntaxProblem | null)[]> {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return texts.map(jsonProblem);
  const kind = SCRIPT_KINDS[ext];
  return kind === undefined ? texts.map(() => null) : scriptProblems(path, kind, texts);
}

/** The first parse error of a file we know how to parse, or null (also for other file types). */
export async function syntaxProblem(path: string, text: string): Promise<SyntaxProblem | null> {
  const [problem] = await syntaxProblems(path, [text]);
  return problem ?? null;
}

/**
 * Refuses a change that breaks the syntax of a file that parsed before (`before` null = new file).
 * An already broken file may be edited: the model may be in the middle of fixing it.
 * Returns the refusal message, or null when the change may be written. Both texts parse in one child.
 */
export async function guardSyntax(rel: string, before: string | null, after: string): Promise<string | null> {
  const [problem, previous] = await syntaxProblems(rel, before === null ? [after] : [after, before]);
  if (!problem || previous) return null;
  const what = before === null ? 'the new file' : 'this edit';
  return `rejected: ${what} would make ${rel} unparsable (line ${problem.line}, column ${problem.column}: ${problem.message}); the file is unchanged. Fix the text and try again.`;
}

import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { writeFileAtomic } from '../util/write-file-atomic.js';
import type { CliIo } from './io.js';

/** What the CLI's entry runs (run-cli.ts), from the compiled bundle or as ES modules. */
export interface CliProgram {
  runCli(argv: string[], io: CliIo): Promise<number>;
}

export interface LoadCliOptions {
  /** The subcommand (argv[0]): the server's load as ES modules; each command has a code cache of its own. */
  command: string | undefined;
  /** The local workdir (local-workdir.ts): its `code-cache/` keeps the compiled code while the directory is the user's own. */
  workdir: string;
  /** The bundle; default `greenfix.cjs` beside this module (scripts/bundle-cli.mjs). */
  bundle?: string;
}

/** Probot is an ES module only, which a CommonJS bundle could require() only from Node 20.19 on: the server loads as ES modules. */
const SERVER_COMMANDS = new Set(['serve', 'worker']);
/** Commands whose code cache is their own (each compiles other functions); any other shares `cli`'s. */
const CACHED_COMMANDS = new Set(['fix', 'doctor', 'chat', 'eval', 'log', 'stats']);
const HEADER = 'greenfix-code-cache 1';

/**
 * The CLI as one CommonJS file compiled with V8's code cache: a command's first run compiles it
 * and, at exit, keeps the bytecode of every function it compiled in `<workdir>/code-cache/`; the
 * next runs start from that bytecode instead of parsing and compiling greenfix again (issue 26:
 * launch → first model request; docs/decisions.md "The CLI starts from its own code cache"). The
 * cache is code greenfix runs, so it is read and written only in a directory of the user's own
 * that no one else may write, and named by the bundle's content: V8 checks its own version and
 * flags but, of the source, only the length. Without a bundle (the TypeScript sources under
 * test), and for `serve` and `worker`, the CLI loads as ES modules.
 */
export async function loadCli(options: LoadCliOptions): Promise<CliProgram> {
  const bundle = options.bundle ?? fileURLToPath(new URL('./greenfix.cjs', import.meta.url));
  if (SERVER_COMMANDS.has(options.command ?? '') || !existsSync(bundle)) return import('./run-cli.js');
  const source = readFileSync(bundle, 'utf8');
  const cacheFile = join(options.workdir, 'code-cache', `${CACHED_COMMANDS.has(options.command ?? '') ? options.command : 'cli'}.bin`);
  const key = `${HEADER} ${createHash('sha256').update(source).update('\0').update(`${process.version} ${process.arch}`).digest('hex')}\n`;
  const cachedData = ownDirs(options.workdir) ? readCache(cacheFile, key) : undefined;
  // The wrapper Node gives a CommonJS module, on the first line: the bundle's line numbers hold.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  if (!cachedData || script.cachedDataRejected === true) process.once('exit', () => writeCache(options.workdir, cacheFile, key, script));
  return module.exports as CliProgram;
}

/** The cache's bytes when the file starts with `key` (this bundle, this node), else undefined. */
function readCache(file: string, key: string): Buffer | undefined {
  try {
    const data = readFileSync(file);
    return data.subarray(0, key.length).toString('latin1') === key ? data.subarray(key.length) : undefined;
  } catch {
    return undefined;
  }
}

/** At exit: the bytecode of every function compiled so far, atomically; never an error (the next run compiles again). */
function writeCache(workdir: string, file: string, key: string, script: Script): void {
  try {
    if (!ownDir(workdir)) return; // e.g. `greenfix --help` before any run made the workdir
    mkdirSync(dirname(file), { mode: 0o700, recursive: true });
    if (!ownDir(dirname(file))) return;
    writeFileAtomic(file, Buffer.concat([Buffer.from(key, 'latin1'), script.createCachedData()]));
  } catch {
    /* a cache not written is compiled again next time */
  }
}

/** The workdir and its code-cache/ (when it exists) are the user's own directories, which no one else may write. */
function ownDirs(workdir: string): boolean {
  const cacheDir = join(workdir, 'code-cache');
  return ownDir(workdir) && (!existsSync(cacheDir) || ownDir(cacheDir));
}

function ownDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

import { closeSync, existsSync, openSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isWithin } from './app-dirs.js';
import { commandWords } from './command-words.js';
import { credentialOverlap } from './credential-paths.js';
import { DEFAULT_SANDBOX_PATH } from './environment.js';
import { findExecutable } from './find-executable.js';
import { SYSTEM_DIRS } from './host-layout.js';
import type { FileOwner } from './ownership.js';
import { firstUnreachableDir, unreachableText } from './unreachable-dir.js';

/** A version manager's root as the user's environment names it (config/toolchain-env.ts reads it). */
export interface ToolchainManager {
  name: string;
  root: string;
  variable: string;
  only: readonly string[] | null;
  passRoot: boolean;
}

export interface ToolchainRequest {
  home: string | null;
  /** The user's PATH, entry by entry. */
  path: readonly string[];
  managers: readonly ToolchainManager[];
  /** Version selections passed as they are (PYENV_VERSION…). */
  selections: Readonly<Record<string, string>>;
  /** The verify and setup commands: what they name is looked up on the user's PATH. */
  commands: readonly string[];
  /** greenfix's own directories and its workdir(s): never shown, nor anything holding one. */
  appDirs: readonly string[];
  dataDirs: readonly string[];
  /** Who the sandbox runs as (null: the current user): a path it cannot reach cannot be bound. */
  runAs: FileOwner | null;
}

/** One directory shown read-only, and why (`pyenv`, `cargo`, `node from PATH`…). */
export interface VisibleToolchain {
  what: string;
  path: string;
}

export interface ToolchainPlan {
  /** Directories bound read-only at their own paths. */
  readOnlyPaths: string[];
  /** The PATH inside: the user's entries that are visible there, in the user's order, then the system's. */
  path: string;
  /** The variables the shims need (PYENV_ROOT, RUSTUP_HOME…), and the user's version selections. */
  env: Record<string, string>;
  visible: VisibleToolchain[];
  /** Programs the commands name that are on neither the user's PATH nor the system's. */
  notFound: string[];
  /** What was found but is not shown, and why (a credential location, unreachable…). */
  refused: { path: string; why: string }[];
}

/** One line for a toolchain found but not shown (`greenfix fix` and `greenfix doctor` print it alike). */
export function refusedToolchainLine(r: { path: string; why: string }): string {
  return `toolchain not shown: ${r.path}: ${r.why}`;
}

/** Interpreter chains (a script whose shebang names a pyenv python) are followed this deep. */
const MAX_DEPTH = 4;

/**
 * What of the user's own toolchains the sandbox sees, read-only: for each program the commands
 * name, where the user's PATH resolves it — inside a version manager's root (the root is shown,
 * and its variable passed so its shims work), or elsewhere outside the system directories (its
 * directory, its real install prefix, and its script's interpreter). Never a credential location
 * nor anything holding one, never greenfix's own directories.
 */
export function planToolchains(request: ToolchainRequest): ToolchainPlan {
  const userPath = request.path.join(':');
  const visible: VisibleToolchain[] = [];
  const refused: { path: string; why: string }[] = [];
  const env: Record<string, string> = {};
  const notFound: string[] = [];
  const seen = new Set<string>();

  const show = (what: string, path: string, managed: boolean): boolean => {
    if (seen.has(path)) return visible.some((v) => v.path === path);
    seen.add(path);
    const why = refusal(path, managed, request);
    if (why) {
      refused.push({ path, why });
      return false;
    }
    visible.push({ what, path });
    return true;
  };
  const showManager = (manager: ToolchainManager): void => {
    const parts = manager.only ? manager.only.map((sub) => join(manager.root, sub)) : [manager.root];
    let shown = false;
    for (const part of parts) if (existsSync(part) && show(manager.name, part, true)) shown = true;
    if (shown && manager.passRoot) env[manager.variable] = manager.root;
    // rustup's proxies (cargo, rustc in cargo's bin) find their toolchains through RUSTUP_HOME.
    if (shown && manager.name === 'cargo') {
      const rustup = request.managers.find((m) => m.name === 'rustup');
      if (rustup && existsSync(rustup.root)) showManager(rustup);
    }
  };
  const consider = (file: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const real = realOrSelf(file);
    for (const path of new Set([file, real])) {
      if (isSystem(path)) continue;
      const manager = request.managers.find((m) => isWithin(path, m.root));
      if (manager) showManager(manager);
      // The install prefix (so its `lib` comes too), else the program's own directory (~/.local holds keyrings).
      else if (!show(`${basename(file)} from PATH`, installDir(path), false)) show(`${basename(file)} from PATH`, dirname(path), false);
    }
    const interpreter = shebang(real);
    if (interpreter) {
      const resolved = interpreter.includes('/') ? interpreter : findExecutable(interpreter, userPath);
      if (resolved) consider(resolved, depth + 1);
    }
  };

  for (const { word, leading } of commandWords(request.commands)) {
    const hit = findExecutable(word, userPath);
    if (hit) consider(hit, 0);
    else if (leading && !findExecutable(word, DEFAULT_SANDBOX_PATH)) notFound.push(word);
  }
  for (const [name, value] of Object.entries(request.selections)) env[name] = value;
  const readOnlyPaths = visible.map((v) => v.path);
  const inside = request.path.filter((entry) => isSystem(entry) || readOnlyPaths.some((dir) => isWithin(entry, dir)));
  const path = [...new Set([...inside, ...DEFAULT_SANDBOX_PATH.split(':')])].join(':');
  return { readOnlyPaths, path, env, visible, notFound, refused };
}

/** Why `path` may not be shown; null when it may. */
function refusal(path: string, managed: boolean, request: ToolchainRequest): string | null {
  const real = realOrSelf(path);
  const why = refusalOf(path, managed, request) ?? (real === path ? null : refusalOf(real, managed, request));
  if (why) return why;
  if (request.runAs) {
    const blocked = firstUnreachableDir(path, request.runAs);
    if (blocked) return `the sandbox's uids cannot reach it: ${unreachableText(blocked)} (chmod o+x ${blocked.dir} lets them pass without listing it)`;
  }
  return null;
}

/** The sandbox's own mount points: a toolchain bound over or around one would replace it (its /tmp, its /proc). */
const SANDBOX_MOUNTS = ['/tmp', '/proc', '/dev', '/sys', '/etc', '/run'];

function refusalOf(path: string, managed: boolean, request: ToolchainRequest): string | null {
  if (path.split('/').filter(Boolean).length < 2 || SANDBOX_MOUNTS.some((dir) => isWithin(dir, path))) return 'it is a top-level directory of the system, or holds one';
  if (['/proc', '/dev', '/sys'].some((dir) => isWithin(path, dir))) return 'it lies in a kernel file system';
  const credential = credentialOverlap(path, request.home);
  if (credential) return `it is or holds a credential location (${credential})`;
  if (request.home && isWithin(request.home, path)) return 'it holds the home directory';
  const own = [...request.appDirs, ...request.dataDirs].find((dir) => isWithin(dir, path));
  if (own) return `it holds greenfix's own directory ${own}`;
  const data = request.dataDirs.find((dir) => isWithin(path, dir));
  if (data) return `it lies inside greenfix's own data ${data}`;
  // A version manager's root under a home that is also the working directory is still only that root.
  const within = request.appDirs.find((dir) => isWithin(path, dir));
  if (within && !managed) return `it lies inside greenfix's own directory ${within}`;
  return null;
}

function isSystem(path: string): boolean {
  return SYSTEM_DIRS.some((dir) => isWithin(path, dir));
}

/** A program's directory, or the install prefix above it when it sits in a `bin` (so `lib` comes too). */
function installDir(file: string): string {
  const dir = dirname(file);
  return basename(dir) === 'bin' && dirname(dir) !== '/' ? dirname(dir) : dir;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A script's interpreter: `#!/path/python` → that path, `#!/usr/bin/env python3` → `python3`; null otherwise. */
function shebang(file: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(256);
    const n = readSync(fd, head, 0, head.length, 0);
    const line = head.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
    if (!line.startsWith('#!')) return null;
    const [program, first] = line.slice(2).trim().split(/\s+/);
    if (!program) return null;
    if (basename(program) === 'env') return first && !first.startsWith('-') ? first : null;
    return program;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

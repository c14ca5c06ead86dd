import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { CLI } from '../cli/helpers.js';

/**
 * `greenfix serve` as a real process (the built CLI), for tests of what only a real process
 * shows: SIGKILL mid-job, restart, SIGTERM. It runs in its own process group so a test can kill
 * it and everything it started in one call.
 */
export interface ServeProcess {
  child: ChildProcess;
  /** The webhook server's URL, from the 'greenfix is running' log line; rejects if it exits first. */
  url: Promise<string>;
  /** How it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** SIGKILLs the whole process group if it still runs (for afterEach). */
  kill(): void;
}

export interface ServeOptions {
  env: Record<string, string>;
  /** Working directory (keep it a temp dir: Probot reads `.env` from it). */
  cwd: string;
  /** Run the built CLI as a program (its shebang), not as `node <cli>`; node found on PATH. */
  asProgram?: boolean;
}

export function spawnServe(options: ServeOptions): ServeProcess {
  // As a program, the kernel reads the CLI's shebang (`env -S node <flags>`), as for a user's `greenfix serve`.
  const [command, args] = options.asProgram ? [CLI, ['serve']] : [process.execPath, [CLI, 'serve']];
  const path = process.env.PATH ?? '/usr/bin:/bin';
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: options.asProgram ? `${dirname(process.execPath)}:${path}` : path, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let running = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = runningUrl(stdout);
      if (found && !running) {
        running = true;
        resolve(found);
      }
    });
    exited.then(({ code, signal }) => reject(new Error(`greenfix serve exited (code ${code}, signal ${signal}) before running:\n${stderr}\n${stdout.slice(-3000)}`)), reject);
  });
  url.catch(() => undefined); // observed by whoever awaits it; not an unhandled rejection otherwise
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    child,
    url,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: () => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    },
  };
}

/** The `url` of pino's JSON line 'greenfix is running', if it has been logged. */
function runningUrl(stdout: string): string | null {
  for (const line of stdout.split('\n')) {
    if (!line.includes('greenfix is running')) continue;
    try {
      const record = JSON.parse(line) as { msg?: string; url?: string };
      if (record.msg === 'greenfix is running' && typeof record.url === 'string') return record.url;
    } catch {
      // a partial line: the rest comes with the next chunk
    }
  }
  return null;
}

/** Pino JSON log records from a process's stdout (other lines skipped). */
export function logRecords(stdout: string): Array<Record<string, unknown>> {
  return stdout.split('\n').flatMap((line) => {
    try {
      const record = JSON.parse(line) as unknown;
      return record && typeof record === 'object' ? [record as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

export interface StrayProcess {
  pid: number;
  what: string;
}

/**
 * Processes (other than this one) whose working directory or command line is under `dir`: what a
 * stopped greenfix must not leave behind (git, sandboxed commands, setup).
 */
export function processesUnder(dir: string): StrayProcess[] {
  const found: StrayProcess[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cwd.startsWith(dir) || cmdline.includes(dir)) found.push({ pid: Number(pid), what: `${cmdline} (cwd ${cwd})` });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** SIGKILLs what a failed test left under `dir` (by pid: only processes these tests started). */
export function killProcessesUnder(dir: string): void {
  for (const { pid } of processesUnder(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

/** `promise`, or a rejection naming `what` after `ms` (the timer never outlives the promise). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

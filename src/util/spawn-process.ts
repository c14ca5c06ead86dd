import { spawn } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import { CappedBuffer } from './capped-buffer.js';
import { openRegularFile } from './regular-file.js';

export interface ProcessRequest {
  argv: readonly string[];
  cwd: string;
  /** The complete environment of the child. Nothing is inherited: callers pass an allow-list. */
  env: Record<string, string>;
  timeoutMs: number;
  /** Bytes kept from the start and from the end of each stream. */
  headBytes?: number;
  tailBytes?: number;
  /**
   * When set, stdout and stderr are also written here in order, up to `outputFileMaxBytes`. Opened
   * before the child starts, never through a symlink, and only if it is (or becomes) a regular file.
   */
  outputFile?: string;
  outputFileMaxBytes?: number;
  stdin?: string;
  /**
   * Bytes the child reads from descriptors 3, 4, … (one pipe each, closed after its bytes): bwrap's
   * seccomp program and the data files it binds.
   */
  extraFds?: readonly Buffer[];
  signal?: AbortSignal;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  /** True when some output was elided from stdout or stderr. */
  truncated: boolean;
  outputBytes: number;
  durationMs: number;
}

const DEFAULT_HEAD = 16 * 1024;
const DEFAULT_TAIL = 48 * 1024;
const DEFAULT_FILE_MAX = 20 * 1024 * 1024;

/**
 * Runs one process in its own process group, from the calling thread. Output is capped while it
 * streams; on timeout or abort the whole group is killed, so nothing the command started outlives
 * it. Callers use `runProcess` (run-process.ts), which calls this on greenfix's process thread.
 */
export function spawnProcess(req: ProcessRequest): Promise<ProcessResult> {
  const started = Date.now();
  const [file, ...args] = req.argv;
  if (!file) return Promise.reject(new TypeError('runProcess: empty argv'));
  const out = new CappedBuffer(req.headBytes ?? DEFAULT_HEAD, req.tailBytes ?? DEFAULT_TAIL);
  const err = new CappedBuffer(req.headBytes ?? DEFAULT_HEAD, req.tailBytes ?? DEFAULT_TAIL);
  const fileMax = req.outputFileMaxBytes ?? DEFAULT_FILE_MAX;
  let fd: number | undefined;
  try {
    fd = req.outputFile ? openRegularFile(req.outputFile, 'write') : undefined;
  } catch (error) {
    return Promise.reject(error);
  }
  let fileBytes = 0;
  const tee = (chunk: Buffer) => {
    if (fd === undefined || fileBytes >= fileMax) return;
    const part = chunk.subarray(0, fileMax - fileBytes);
    writeSync(fd, part);
    fileBytes += part.length;
    if (fileBytes >= fileMax) writeSync(fd, `\n[output file capped at ${fileMax} bytes]\n`);
  };

  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: req.cwd,
      env: req.env,
      detached: true,
      // No stdin unless given: a socket on stdin makes bash believe rshd started it and read ~/.bashrc.
      stdio: [req.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(req.extraFds ?? []).map(() => 'pipe' as const)],
    });
    let timedOut = false;
    let aborted = false;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* the group is already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, req.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    if (req.signal?.aborted) onAbort();

    child.stdout?.on('data', (c: Buffer) => (out.push(c), tee(c)));
    child.stderr?.on('data', (c: Buffer) => (err.push(c), tee(c)));
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(req.stdin);
    (req.extraFds ?? []).forEach((bytes, i) => {
      const pipe = child.stdio[3 + i] as NodeJS.WritableStream | null | undefined;
      pipe?.on('error', () => undefined);
      pipe?.end(bytes);
    });

    const finish = () => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (fd !== undefined) closeSync(fd);
    };
    // When the leader exits, anything it left running in the background dies with it.
    child.on('exit', killGroup);
    child.on('error', (e) => {
      finish();
      reject(e);
    });
    child.on('close', (exitCode, signal) => {
      finish();
      resolve({
        exitCode,
        signal,
        timedOut,
        aborted,
        stdout: out.toString(),
        stderr: err.toString(),
        truncated: out.truncated || err.truncated,
        outputBytes: out.totalBytes + err.totalBytes,
        durationMs: Date.now() - started,
      });
    });
  });
}

import { Worker } from 'node:worker_threads';
import { RegularFileError, type RegularFileRefusal } from './regular-file.js';
import type { ProcessRequest, ProcessResult } from './spawn-process.js';

/** What travels to the process thread: a request to run (everything but the signal), or an abort. */
export type LauncherMessage = { id: number; req: Omit<ProcessRequest, 'signal'> } | { abort: number };
/** What comes back: the result, or the error the spawn rejected with. */
export type LauncherReply = { id: number; result: ProcessResult } | { id: number; error: WireError };

/** An error as plain data: its class is re-created on this side (a `RegularFileError` stays one, an errno error keeps its code). */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
  reason?: string;
}

interface Waiting {
  resolve(result: ProcessResult): void;
  reject(error: Error): void;
}

/**
 * Starts child processes from a thread of their own, so that the event loop that answers webhooks
 * and runs the agent never stops for a spawn. Node forks the whole process to start a child and
 * then blocks until the child has exec'd; on a loaded machine the child may wait tens of
 * milliseconds for a core, and the caller's event loop waits with it (measured: 13–84 ms per
 * sandboxed command, docs/decisions.md "Processes start from their own thread"). Here only the
 * process thread waits. The thread holds nothing of any job: everything a request needs travels in
 * it, and a thread that died is replaced by the next request. It never keeps the process alive
 * when nothing is running.
 */
export class ProcessLauncher {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly entry: URL) {}

  run(req: ProcessRequest): Promise<ProcessResult> {
    const { signal, ...rest } = req;
    const id = this.nextId++;
    const worker = this.thread();
    return new Promise<ProcessResult>((resolve, reject) => {
      const onAbort = () => worker.postMessage({ abort: id } satisfies LauncherMessage);
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(id);
        if (this.waiting.size === 0) this.worker?.unref();
      };
      this.waiting.set(id, { resolve: (r) => (done(), resolve(r)), reject: (e) => (done(), reject(e)) });
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, req: rest } satisfies LauncherMessage);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
    });
  }

  /** Ends the thread (its running children are killed with their groups by their own timeouts' owners: call only when none run). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // No flags of the process's own: some (`--input-type`, `--eval`) stop a worker from starting.
    const worker = new Worker(this.entry, { execArgv: [] });
    worker.unref();
    worker.on('message', (reply: LauncherReply) => {
      const w = this.waiting.get(reply.id);
      if (!w) return;
      if ('result' in reply) w.resolve(reply.result);
      else w.reject(fromWire(reply.error));
    });
    const lost = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const w of [...this.waiting.values()]) w.reject(new Error(`greenfix's process thread ended (${why}); the command's result is unknown`));
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}

export function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const e = error as NodeJS.ErrnoException & { reason?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(e.stack !== undefined ? { stack: e.stack } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.errno === 'number' ? { errno: e.errno } : {}),
    ...(typeof e.syscall === 'string' ? { syscall: e.syscall } : {}),
    ...(typeof e.path === 'string' ? { path: e.path } : {}),
    ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
  };
}

function fromWire(w: WireError): Error {
  if (w.name === 'RegularFileError' && w.reason !== undefined && w.path !== undefined) return new RegularFileError(w.reason as RegularFileRefusal, w.path, w.message);
  const error: Error & Partial<NodeJS.ErrnoException> = w.name === 'TypeError' ? new TypeError(w.message) : new Error(w.message);
  if (w.code !== undefined) error.code = w.code;
  if (w.errno !== undefined) error.errno = w.errno;
  if (w.syscall !== undefined) error.syscall = w.syscall;
  if (w.path !== undefined) error.path = w.path;
  if (w.stack !== undefined) error.stack = w.stack;
  return error;
}

import { existsSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { startHost, type Channel, type Port } from './process-host.js';

/** How much nicer than greenfix's own thread its worker threads and the processes they start run (capped at 19): the thread that answers webhooks comes first. */
const JOB_NICE = 10;

/** A call to a thread: a method by name with plain-data arguments, or the abort of an earlier call. */
type Call = { id: number; method: string; args: unknown } | { abort: number };
type Reply = { id: number; result: unknown } | { id: number; error: WireError };

/** An error as plain data; the caller's side makes it an instance of its class again (`revive`). */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  /** The error's own string and number properties (`code`, `errno`, `syscall`, `path`, `reason`…). */
  fields: Record<string, string | number>;
}

/** Re-creates an error of a known class from its wire form, or returns null for a plain Error. */
export type Revive = (error: WireError) => Error | null;

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** Where a client's script runs: a worker thread of this process, or a small process of its own (process-host.ts). */
export type ScriptHost = 'thread' | 'process';

/**
 * The caller's side of a worker thread (or a host process) that runs work off the event loop
 * (starting processes, copying and linking trees): `call` posts a method's plain-data arguments
 * and resolves with its result or rejects with its error, revived as its class. The thread starts
 * at the first call, is replaced by the next call if it dies (the calls waiting get an error), and
 * is unref'd whenever no call waits, so it never keeps a process alive. It holds no job's state:
 * everything a call needs travels with it.
 */
export class ThreadClient {
  private worker: Channel | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly entry: URL,
    private readonly revive: Revive,
    private readonly host: ScriptHost = 'thread',
  ) {}

  /** Starts the thread now instead of at the first call (unref'd: it keeps no process alive). */
  start(): void {
    this.thread();
  }

  call(method: string, args: unknown, signal?: AbortSignal): Promise<unknown> {
    const id = this.nextId++;
    const worker = this.thread();
    return new Promise((resolve, reject) => {
      const onAbort = () => worker.postMessage({ abort: id } satisfies Call);
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(id);
        if (this.waiting.size === 0) this.worker?.unref();
      };
      this.waiting.set(id, { resolve: (r) => (done(), resolve(r)), reject: (e) => (done(), reject(e)) });
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, method, args } satisfies Call);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
    });
  }

  private thread(): Channel {
    if (this.worker) return this.worker;
    // No flags of the process's own: some (`--input-type`, `--eval`) stop a worker from starting.
    const worker: Channel = this.host === 'process' ? startHost(this.entry) : new Worker(this.entry, { execArgv: [] });
    worker.unref();
    worker.on('message', (message) => {
      const reply = message as Reply;
      const w = this.waiting.get(reply.id);
      if (!w) return;
      if ('result' in reply) w.resolve(reply.result);
      else w.reject(this.revive(reply.error) ?? plainError(reply.error));
    });
    const lost = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const w of [...this.waiting.values()]) w.reject(new Error(`greenfix's ${this.host === 'process' ? 'host process' : 'worker thread'} ${this.entry.pathname} ended (${why}); the call's result is unknown`));
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}

/**
 * The thread's side: runs each call's method (synchronous or not) and posts back its result or
 * its error; an abort reaches the method through its signal. The thread first sets its nice value
 * JOB_NICE above the process's (a child inherits its thread's): its work and every process it
 * starts yield the CPU to the thread that answers webhooks (docs/decisions.md "A job's processes
 * run 10 nicer than greenfix"). The returned function aborts every call running (a host whose
 * parent is gone, process-host.ts).
 */
export function serveThread(port: Port, methods: Record<string, (args: never, signal: AbortSignal) => unknown>): () => void {
  setPriority(Math.min(19, getPriority() + JOB_NICE));
  const running = new Map<number, AbortController>();
  port.on('message', (message) => {
    const m = message as Call;
    if ('abort' in m) return void running.get(m.abort)?.abort();
    const { id, method, args } = m;
    const abort = new AbortController();
    running.set(id, abort);
    new Promise((resolve) => {
      const fn = methods[method];
      if (!fn) throw new Error(`no method ${method} in this thread`);
      resolve(fn(args as never, abort.signal));
    })
      .then(
        (result) => port.postMessage({ id, result } satisfies Reply),
        (error: unknown) => port.postMessage({ id, error: toWire(error) } satisfies Reply),
      )
      .finally(() => running.delete(id));
  });
  return () => {
    for (const abort of running.values()) abort.abort();
  };
}

/**
 * Where a thread's script is: `rel` (e.g. `util/process-thread.js`) under the nearest `src/`
 * above `moduleUrl` — tsc's layout, a bundle's chunk in `src/cli/` or the CLI's compiled bundle beside it. Null when running from
 * TypeScript sources (the test runner), which have no script a thread could load.
 */
export function threadScript(moduleUrl: string, rel: string): URL | null {
  if (!/\.c?js$/.test(moduleUrl)) return null;
  for (let dir = new URL('.', moduleUrl); dir.pathname !== '/'; dir = new URL('..', dir)) {
    if (!dir.pathname.endsWith('/src/')) continue;
    const script = new URL(rel, dir);
    if (existsSync(script)) return script;
  }
  throw new Error(`greenfix's thread script src/${rel} is missing above ${moduleUrl}: build greenfix again (npm run build)`);
}

function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  return { name: error.name, message: error.message, ...(error.stack !== undefined ? { stack: error.stack } : {}), fields };
}

/** An error of no known class: an Error (a TypeError stays one) with the same message, stack and fields (`code` of an errno error). */
function plainError(w: WireError): Error {
  const error = w.name === 'TypeError' ? new TypeError(w.message) : new Error(w.message);
  Object.assign(error, w.fields);
  if (w.stack !== undefined) error.stack = w.stack;
  return error;
}

import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';

/**
 * Both ends of a script that serves calls (thread-rpc.ts) from a small process of its own instead
 * of a worker thread: `startHost` on greenfix's side, `hostPort` in the child. What matters is
 * where forks come from. Node forks the whole calling process to start a child: the kernel copies
 * its page tables while holding its memory map's lock, so every thread of a 250 MB greenfix that
 * faults a page waits (the event loop that answers webhooks too), and on a kernel without
 * preemption nothing else runs on that core meanwhile. A host of ~40 MB forks in a fraction of it,
 * and its lock is its own (docs/decisions.md "Processes start from a small process").
 */

/** What thread-rpc.ts's client needs of a running script: a worker thread has it as is. */
export interface Channel {
  postMessage(message: unknown): void;
  ref(): void;
  unref(): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number | null) => void): unknown;
}

/** The serving end of a thread or host: messages in, replies out. */
export interface Port {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  postMessage(message: unknown): void;
}

/**
 * Starts `entry` as a child process. It gets no environment and no flags of greenfix's (no key,
 * token or secret to be read from its /proc entry; every request carries the environment its own
 * child gets), no stdin or stdout, greenfix's stderr for a crash's last words, and an IPC channel
 * that carries calls and replies as structured clones (Buffers, Uint8Arrays, plain objects).
 */
export function startHost(entry: URL): Channel {
  const child: ChildProcess = fork(fileURLToPath(entry), [], { execArgv: [], env: {}, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const channel = new EventEmitter() as EventEmitter & Channel;
  child.on('message', (message) => channel.emit('message', message));
  child.on('error', (error) => channel.emit('error', error));
  child.on('exit', (code) => channel.emit('exit', code));
  channel.postMessage = (message) => {
    // A host that is gone reports it through 'exit'; a send into its closed channel is not news.
    if (child.connected) child.send(message as never, (error) => error && undefined);
  };
  channel.ref = () => (child.ref(), child.channel?.ref());
  channel.unref = () => (child.unref(), child.channel?.unref());
  return channel;
}

/** The child's end: messages from greenfix, replies to it. Null when not started by `startHost`. */
export function hostPort(): Port | null {
  if (!process.send) return null;
  return {
    on: (event, listener) => process.on(event, listener as (message: unknown) => void),
    postMessage: (message) => {
      if (process.connected) process.send?.(message, undefined, undefined, (error: Error | null) => error && undefined);
    },
  };
}

/**
 * When greenfix goes (an exit, a crash, kill -9), its end of the channel closes: `abortAll`
 * kills what the host is running (each process group), and the host exits.
 */
export function exitWithParent(abortAll: () => void): void {
  process.on('disconnect', () => {
    abortAll();
    process.exit(0);
  });
}

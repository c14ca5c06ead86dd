import { parentPort, type MessagePort } from 'node:worker_threads';
import { toWire, type LauncherMessage, type LauncherReply } from './process-launcher.js';
import { spawnProcess } from './spawn-process.js';

/**
 * The process thread's loop (process-launcher.ts): each request is run with `spawnProcess`, as the
 * caller's thread would have run it, and its result or error goes back under the request's id.
 */
function serve(port: MessagePort): void {
  const running = new Map<number, AbortController>();
  port.on('message', (m: LauncherMessage) => {
    if ('abort' in m) return void running.get(m.abort)?.abort();
    const { id, req } = m;
    const abort = new AbortController();
    running.set(id, abort);
    // Buffers arrive as Uint8Arrays (structured clone).
    const extraFds = req.extraFds?.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    spawnProcess({ ...req, ...(extraFds ? { extraFds } : {}), signal: abort.signal })
      .then(
        (result) => port.postMessage({ id, result } satisfies LauncherReply),
        (error: unknown) => port.postMessage({ id, error: toWire(error) } satisfies LauncherReply),
      )
      .finally(() => running.delete(id));
  });
}

if (!parentPort) throw new Error('process-thread.ts runs only as greenfix\'s process thread (process-launcher.ts starts it)');
serve(parentPort);

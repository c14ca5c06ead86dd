import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface RedisServer {
  url: string;
  /** The server's own data directory (removed by stop). */
  dir: string;
  /** Stops the server (SIGTERM: Redis flushes its AOF) and removes its directory. */
  stop(): Promise<void>;
  /** Stops and starts it again on the same port and directory: the data comes back from the AOF. */
  restart(): Promise<void>;
}

/** Thrown when no redis-server can be started: the Redis tests fail with this, never skip. */
export class RedisServerError extends Error {
  override readonly name = 'RedisServerError';
}

/** A failure bound, not a synchronisation: readiness is the server's own "Ready" line. */
const START_LIMIT_MS = 15_000;

/**
 * A real redis-server on a free loopback port with a private temp dir, AOF on and RDB snapshots
 * off, so restart() keeps the data the way a production Redis with `appendonly yes` does.
 */
export async function startRedisServer(options: { command?: string } = {}): Promise<RedisServer> {
  const command = options.command ?? 'redis-server';
  const dir = mkdtempSync(join(tmpdir(), 'gf-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  try {
    child = await spawnReady(command, port, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    dir,
    async stop() {
      await terminate(child);
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await terminate(child);
      child = await spawnReady(command, port, dir);
    },
  };
}

function spawnReady(command: string, port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', dir];
  // Only PATH: the server needs nothing from our environment.
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new RedisServerError(message));
    };
    const timer = setTimeout(() => fail(`redis-server was not ready within ${START_LIMIT_MS} ms:\n${output}`), START_LIMIT_MS);
    child.on('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'ENOENT' ? `${command} is not installed (apt-get install redis-server; .ci/run does it)` : `redis-server: ${error.message}`),
    );
    child.on('exit', (code) => fail(`redis-server exited with ${code} before it was ready:\n${output}`));
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
      if (!/Ready to accept connections/.test(output)) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
}

async function terminate(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface RegistryServer {
  /** `127.0.0.1:PORT`: the registry part of an image reference. */
  host: string;
  /** Stops the registry and removes its storage. */
  stop(): Promise<void>;
}

/** Thrown when no registry can be started: the image tests fail with this, never skip. */
export class RegistryServerError extends Error {
  override readonly name = 'RegistryServerError';
}

/** The one account of a registry started with `auth: true`. */
export const REGISTRY_USER = 'greenfix-ci';
export const REGISTRY_PASSWORD = 'greenfix-registry-pass';
/** bcrypt (cost 4) of REGISTRY_PASSWORD: the registry reads htpasswd files with bcrypt only. */
const PASSWORD_HASH = '$2b$04$ZzSA0tQiu.AvYzzCnSxF9uTqthsRFAljPhartK0hq5k4zl7YT/ose';

const START_LIMIT_MS = 15_000;

/**
 * Debian's docker-registry (the CNCF distribution registry) on a free loopback port, plain HTTP,
 * storage in a private temp dir; with `auth`, htpasswd basic auth for REGISTRY_USER. Ready when
 * its HTTP API answers.
 */
export async function startRegistry(options: { auth?: boolean } = {}): Promise<RegistryServer> {
  const dir = mkdtempSync(join(tmpdir(), 'gf-registry-'));
  const port = await freePort();
  const auth = options.auth ? `auth:\n  htpasswd:\n    realm: greenfix-test\n    path: ${join(dir, 'htpasswd')}\n` : '';
  writeFileSync(join(dir, 'htpasswd'), `${REGISTRY_USER}:${PASSWORD_HASH}\n`);
  writeFileSync(
    join(dir, 'config.yml'),
    `version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: ${join(dir, 'data')}\nhttp:\n  addr: 127.0.0.1:${port}\n${auth}`,
  );
  const child = spawn('/usr/bin/docker-registry', ['serve', join(dir, 'config.yml')], { env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
  const host = `127.0.0.1:${port}`;
  try {
    await ready(child, host, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function ready(child: ChildProcess, host: string, output: () => string): Promise<void> {
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new RegistryServerError(error.code === 'ENOENT' ? 'docker-registry is not installed (apt-get install docker-registry; .ci/run does it)' : error.message)),
    );
    child.once('exit', (code) => reject(new RegistryServerError(`docker-registry exited with ${code} before it was ready:\n${output()}`)));
  });
  const deadline = Date.now() + START_LIMIT_MS;
  const poll = async (): Promise<void> => {
    for (;;) {
      // 200 or 401 (auth on): the API answers.
      const answered = await fetch(`http://${host}/v2/`).then((r) => r.status === 200 || r.status === 401, () => false);
      if (answered) return;
      if (Date.now() > deadline) throw new RegistryServerError(`docker-registry did not answer within ${START_LIMIT_MS} ms:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await Promise.race([poll(), failed]);
  child.removeAllListeners('exit');
  child.removeAllListeners('error');
}

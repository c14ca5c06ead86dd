import { generateKeyPairSync } from 'node:crypto';
import nock from 'nock';
import { pino, type Logger } from 'pino';
import { Probot, Server, type ApplicationFunction, type Options } from 'probot';

/** A GitHub App identity for tests: Probot signs its JWTs with this key; nock answers them. */
export function testAppCredentials(): { appId: number; privateKey: string } {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { appId: 1, privateKey };
}

/**
 * `POST /app/installations/<id>/access_tokens`, answered for every call (persisted): Probot asks
 * again whenever its token cache misses. Call `nock.cleanAll()` in afterEach, and `nock.restore()`
 * in afterAll: nock patches node:http, which outlives the test file's module registry.
 */
export function nockInstallationToken(
  installationId: number,
  token = 'ghs_test',
  baseUrl = 'https://api.github.com',
): nock.Scope {
  return nock(baseUrl)
    .persist()
    .post(`/app/installations/${installationId}/access_tokens`)
    .reply(201, () => ({
      token,
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      permissions: {
        contents: 'write',
        pull_requests: 'write',
        issues: 'write',
        checks: 'write',
        actions: 'read',
        metadata: 'read',
      },
      repository_selection: 'all',
    }));
}

/** Probot's HTTP `Handler` (not exported by name from probot's entry point). */
export type Handler = Parameters<Server['addHandler']>[0];

export interface TestServerOptions {
  /** The app under test (`app.on(...)`). */
  appFn?: ApplicationFunction;
  /** Extra HTTP handlers (`/healthz`, `/metrics`), tried after Probot's webhook route. */
  handlers?: Handler[];
  /** Webhook secret; default `test`. */
  secret?: string;
  credentials?: { appId: number; privateKey: string };
  /** More Probot options (Octokit with retries off, a baseUrl for GHES, …). */
  probot?: Options;
  /** Default: silent. */
  log?: Logger;
}

export interface TestServer {
  server: Server;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Probot's webhook route on that server. */
  webhookUrl: string;
  stop(): Promise<void>;
}

/**
 * A real Probot `Server` on 127.0.0.1 and an ephemeral port. Probot turns `port: 0` into 3000
 * (`options.port || 3000`), so the port is passed as the string "0", which `listen` reads as
 * "any free port"; the bound port is read back from the `http.Server`.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const credentials = options.credentials ?? testAppCredentials();
  const log = options.log ?? pino({ level: 'silent' });
  const server = new Server({
    Probot: Probot.defaults({ ...credentials, secret: options.secret ?? 'test', ...options.probot }),
    host: '127.0.0.1',
    port: '0' as unknown as number,
    log,
  });
  if (options.appFn) await server.load(options.appFn);
  for (const handler of options.handlers ?? []) server.addHandler(handler);
  const http = await server.start();
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  return { server, url, webhookUrl: `${url}/api/github/webhooks`, stop: () => server.stop() };
}

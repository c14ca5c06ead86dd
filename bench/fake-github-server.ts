import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeFakeGitHub } from '../test/support/fake-github-routes.js';
import type { FakeGitHubState } from '../test/support/fake-github-state.js';

export interface FakeGitHubServer {
  /** Probot's `baseUrl` (GHES shape, `/api/v3`). */
  baseUrl: string;
  close(): Promise<void>;
}

export interface FakeGitHubOptions {
  /** The collaborator-permission call answers this late: a slow GitHub API (0: at once). */
  permissionDelayMs?: number;
  /** The read of `.github/greenfix.yml` answers this late (0: at once). */
  configDelayMs?: number;
}

const PERMISSION = /\/collaborators\/[^/]+\/permission(\?|$)/;
const CONFIG_READ = /\/contents\/\.github(%2F|\/)greenfix\.yml(\?|$)/;

/**
 * The tests' stateful fake GitHub as a loopback HTTP server. Not test/support's
 * `serveFakeGitHub`: that module imports nock, and importing nock patches node:http and fetch
 * for the whole process, which would put nock's interceptor on every request being timed.
 */
export async function serveBenchGitHub(state: FakeGitHubState, options: FakeGitHubOptions = {}): Promise<FakeGitHubServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const r = routeFakeGitHub(state, req.method ?? 'GET', req.url ?? '/', text ? JSON.parse(text) : undefined, String(req.headers.accept ?? ''));
      const answer = () => {
        res.writeHead(r.status, { 'content-type': r.raw !== undefined ? 'text/plain' : 'application/json', ...r.headers });
        res.end(r.raw ?? JSON.stringify(r.body ?? {}));
      };
      const url = req.url ?? '';
      const delayMs = PERMISSION.test(url) ? (options.permissionDelayMs ?? 0) : CONFIG_READ.test(url) ? (options.configDelayMs ?? 0) : 0;
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v3`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import type { FakeGitHubState } from './fake-github-state.js';
import { routeFakeGitHub, type FakeResponse } from './fake-github-routes.js';

export * from './fake-github-state.js';

/** Handles one request against the state, applying injected failures first; then `state.onChange`. */
export function answer(state: FakeGitHubState, method: string, url: string, body: unknown, accept: string, authorization = ''): FakeResponse {
  try {
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(authorization)?.[1] ?? null;
    state.requestTokens.push([`${method} ${new URL(url, 'http://x').pathname.replace(/^\/api\/v3/, '')}`, token]);
    return answerOnce(state, method, url, body, accept);
  } finally {
    state.onChange?.();
  }
}

function answerOnce(state: FakeGitHubState, method: string, url: string, body: unknown, accept: string): FakeResponse {
  const path = new URL(url, 'http://x').pathname.replace(/^\/api\/v3/, '');
  state.requests.push(`${method} ${path}`);
  const failure = state.failures.find((f) => f.times > 0 && f.method === method && f.path.test(path));
  if (failure) {
    failure.times -= 1;
    if (failure.apply) routeFakeGitHub(state, method, url, body, accept);
    return { status: failure.status, body: failure.body ?? { message: 'injected failure' }, ...(failure.headers ? { headers: failure.headers } : {}) };
  }
  return routeFakeGitHub(state, method, url, body, accept);
}

/** GitHub's API through nock, in this process (persisted; `nock.cleanAll()` removes it). */
export function nockFakeGitHub(state: FakeGitHubState, baseUrl = 'https://api.github.com'): nock.Scope {
  const scope = nock(baseUrl).persist();
  for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
    scope.intercept(/.*/, method.toUpperCase()).reply(function reply(uri, body) {
      const accept = String(this.req.headers.accept ?? '');
      const authorization = String(this.req.headers.authorization ?? '');
      const r = answer(state, method.toUpperCase(), uri, typeof body === 'string' && body ? JSON.parse(body) : body, accept, authorization);
      return [r.status, r.raw ?? r.body, r.headers ?? {}];
    });
  }
  return scope;
}

/** The same fake as a real HTTP server on loopback, for an app running in another process. */
export async function serveFakeGitHub(state: FakeGitHubState): Promise<{ baseUrl: string; host: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const r = answer(state, req.method ?? 'GET', req.url ?? '/', text ? JSON.parse(text) : undefined, String(req.headers.accept ?? ''), String(req.headers.authorization ?? ''));
      const payload = r.raw ?? JSON.stringify(r.body ?? {});
      res.writeHead(r.status, { 'content-type': r.raw !== undefined ? 'text/plain' : 'application/json', ...(r.headers ?? {}) });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/api/v3`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * Resolves once `predicate(state)` holds, checked now and after every request the fake answers
 * (no polling); rejects after `timeoutMs` with `describe(state)`. Replaces any `state.onChange`.
 */
export function waitForFakeState(
  state: FakeGitHubState,
  predicate: (state: FakeGitHubState) => boolean,
  timeoutMs: number,
  describe: (state: FakeGitHubState) => string = (s) => s.requests.slice(-10).join(', '),
): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      delete state.onChange;
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error(`fake GitHub: condition not met in ${timeoutMs} ms; last requests: ${describe(state)}`)), timeoutMs);
    state.onChange = () => {
      if (predicate(state)) done();
    };
    if (predicate(state)) done();
  });
}

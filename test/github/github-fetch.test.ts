import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProbotOctokit } from 'probot';
import { githubFetch as fromSource, onGitHubThread as onThreadFromSource } from '../../src/github/github-fetch.js';

/** The compiled module (`npm test` builds first): only there do requests go out from the GitHub thread. */
const DIST = resolve('dist/src/github');
interface Loaded {
  githubFetch: typeof fromSource;
  onGitHubThread: typeof onThreadFromSource;
}
const dist = async (): Promise<Loaded> => {
  if (!existsSync(join(DIST, 'fetch-thread.js'))) throw new Error(`${DIST}/fetch-thread.js is missing: run npm run build first`);
  return (await import(pathToFileURL(join(DIST, 'github-fetch.js')).href)) as Loaded;
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback server answering as GitHub's REST API would, recording what it was sent. */
async function serve(): Promise<{ server: Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 30_000).unref();
      if (req.url?.startsWith('/repos/o/r/collaborators/')) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '4999' });
        return void res.end(JSON.stringify({ permission: 'write', role_name: 'write' }));
      }
      if (req.url === '/repos/o/r/issues/7/reactions') {
        res.writeHead(201, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ id: 1, content: JSON.parse(Buffer.concat(chunks).toString('utf8')).content }));
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe.each([
  ['from the calling thread (TypeScript sources)', async (): Promise<Loaded> => ({ githubFetch: fromSource, onGitHubThread: onThreadFromSource })],
  ['from the GitHub thread (compiled)', dist],
])('githubFetch %s', (_how, load) => {
  let githubFetch: Loaded['githubFetch'];
  let onGitHubThread: Loaded['onGitHubThread'];
  let api: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => ({ githubFetch, onGitHubThread } = await load()));
  beforeEach(async () => (api = await serve()));
  afterEach(async () => {
    api.server.closeAllConnections();
    await new Promise((r) => api.server.close(r));
  });

  it('sends the method, headers and body, and answers status, headers, body and URL as fetch does', async () => {
    const res = await githubFetch(`${api.base}/repos/o/r/issues/7/reactions`, { method: 'POST', headers: { authorization: 'token t', 'content-type': 'application/json' }, body: JSON.stringify({ content: 'eyes' }) });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.url).toBe(`${api.base}/repos/o/r/issues/7/reactions`);
    expect(await res.json()).toEqual({ id: 1, content: 'eyes' });
    expect(api.seen).toEqual([expect.objectContaining({ method: 'POST', url: '/repos/o/r/issues/7/reactions', body: '{"content":"eyes"}' })]);
    expect(api.seen[0]?.headers.authorization).toBe('token t');
  });

  it('answers a 204 with no body', async () => {
    const res = await githubFetch(`${api.base}/empty`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("fails as fetch fails: a TypeError whose cause names the network's error", async () => {
    const port = await closedPort();
    const error = await githubFetch(`http://127.0.0.1:${port}/x`).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ name: 'TypeError' }); // (the test runner's realm has a TypeError of its own)
    expect((error as Error & { cause: Error & { code?: string } }).cause).toMatchObject({ code: 'ECONNREFUSED', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('stops a request when its signal aborts, with an AbortError', async () => {
    const abort = new AbortController();
    const pending = githubFetch(`${api.base}/slow`, { signal: abort.signal });
    await new Promise<void>((r) => (api.seen.length > 0 ? r() : api.server.once('request', () => r())));
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("is octokit's fetch in the app's Octokit class: answers, GitHub's errors and network failures as octokit reports them", async () => {
    const Octokit = onGitHubThread(ProbotOctokit.defaults((o: Record<string, any>) => ({ ...o, throttle: { ...o.throttle, enabled: false }, retry: { enabled: false } })));
    const octokit = new Octokit({ auth: { token: 'token-1' }, baseUrl: api.base });
    const { data, headers } = await octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { owner: 'o', repo: 'r', username: 'dev' });
    expect(data).toEqual({ permission: 'write', role_name: 'write' });
    expect(headers['x-ratelimit-remaining']).toBe('4999');
    expect(api.seen[0]?.headers.authorization).toBe('token token-1');
    await expect(octokit.request('GET /repos/{owner}/{repo}/issues/{n}', { owner: 'o', repo: 'r', n: 1 })).rejects.toMatchObject({ status: 404, message: expect.stringContaining('Not Found') });
    const port = await closedPort();
    const offline = new Octokit({ auth: { token: 'token-1' }, baseUrl: `http://127.0.0.1:${port}` });
    // (The network's words, ECONNREFUSED, are checked below from the thread: from the sources octokit's
    // `instanceof Error` fails across the test runner's realms and it says "Unknown Error".)
    await expect(offline.request('GET /app')).rejects.toMatchObject({ status: 500 });
  });
});

describe('githubFetch from the GitHub thread (compiled)', () => {
  it("lets octokit say why the network failed, as with the calling thread's fetch", async () => {
    const { onGitHubThread } = await dist();
    const port = await closedPort();
    const offline = new (onGitHubThread(ProbotOctokit))({ auth: { token: 't' }, baseUrl: `http://127.0.0.1:${port}`, retry: { enabled: false } });
    await expect(offline.request('GET /app')).rejects.toMatchObject({ status: 500, message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it("never uses the calling thread's fetch", async () => {
    const { githubFetch } = await dist();
    const api = await serve();
    const own = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new Error("the calling thread's fetch was used"));
    try {
      const res = await githubFetch(`${api.base}/repos/o/r/collaborators/dev/permission`);
      expect(await res.json()).toEqual({ permission: 'write', role_name: 'write' });
    } finally {
      globalThis.fetch = own;
      api.server.closeAllConnections();
      await new Promise((r) => api.server.close(r));
    }
  });
});

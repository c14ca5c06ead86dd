import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * GitHub's git remote, for tests: smart HTTP served by the real `git http-backend` CGI over bare
 * repositories under `root`, behind the Basic auth GitHub accepts for installation tokens
 * (`x-access-token:<token>`). Push (receive-pack) is enabled.
 */
export interface GitHttpServerOptions {
  root: string;
  token: string;
  /** Runs before a request is served (after the auth check): lets a test move a ref "in between". */
  beforeRequest?: (request: { method: string; path: string; query: string }) => void | Promise<void>;
}

export interface GitHttpRequest {
  method: string;
  path: string;
  query: string;
  authorized: boolean;
  status: number;
  /** Response body bytes: how much a fetch transferred. */
  bytesOut: number;
  /**
   * A push (POST …/git-receive-pack): whether it moved a ref, read from the repository before
   * and after. A push cut off mid-way (its client killed) has status 200 all the same: http-backend
   * sends the header first.
   */
  movedRefs?: boolean;
}

export interface GitHttpServer {
  url(repoPath: string): string;
  requests: GitHttpRequest[];
  close(): Promise<void>;
}

export async function startGitHttpServer(opts: GitHttpServerOptions): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`x-access-token:${opts.token}`).toString('base64')}`;
  const requests: GitHttpRequest[] = [];
  const children = new Set<ChildProcess>();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const record: GitHttpRequest = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: url.search.slice(1),
      authorized: req.headers.authorization === expected,
      status: 0,
      bytesOut: 0,
    };
    requests.push(record);
    if (!record.authorized) {
      record.status = 401;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="greenfix-test"', 'Content-Type': 'text/plain' });
      res.end('Unauthorized\n');
      return;
    }
    Promise.resolve(opts.beforeRequest?.({ method: record.method, path: record.path, query: record.query }))
      .then(() => serveCgi(req, res, record, opts.root, children, pushRecorder(record, opts.root)))
      .catch((error: unknown) => {
        record.status = 500;
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`test server error: ${String(error)}\n`);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (repoPath) => `http://127.0.0.1:${port}/${repoPath.replace(/^\/+/, '')}`,
    requests,
    async close() {
      const exits = [...children].map((child) => new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('close', () => resolve());
        killGroup(child);
      }));
      server.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), ...exits]);
    },
  };
}

function cgiEnv(req: IncomingMessage, record: GitHttpRequest, root: string): Record<string, string> {
  const header = (name: string): Record<string, string> => {
    const value = req.headers[name];
    return typeof value === 'string' ? { [name]: value } : {};
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'http.receivepack',
    GIT_CONFIG_VALUE_0: 'true',
    GIT_CONFIG_KEY_1: 'safe.directory',
    GIT_CONFIG_VALUE_1: '*',
    REQUEST_METHOD: record.method,
    PATH_INFO: record.path,
    QUERY_STRING: record.query,
    REMOTE_USER: 'x-access-token',
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
  };
  const type = header('content-type')['content-type'];
  if (type) env.CONTENT_TYPE = type;
  const length = header('content-length')['content-length'];
  if (length) env.CONTENT_LENGTH = length;
  const encoding = header('content-encoding')['content-encoding'];
  if (encoding) env.HTTP_CONTENT_ENCODING = encoding;
  const protocol = header('git-protocol')['git-protocol'];
  if (protocol) env.GIT_PROTOCOL = protocol;
  return env;
}

/**
 * For a push, what runs before http-backend starts and after it ends (before the response does,
 * so the pusher cannot go on before its record says whether the push moved a ref).
 */
function pushRecorder(record: GitHttpRequest, root: string): { before: () => Promise<void>; after: () => Promise<void> } | null {
  if (record.method !== 'POST' || !record.path.endsWith('/git-receive-pack')) return null;
  const gitDir = join(root, record.path.slice(0, -'/git-receive-pack'.length));
  const refs = async () => (await promisify(execFile)('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname) %(objectname)'])).stdout;
  let before = '';
  return {
    before: async () => void (before = await refs()),
    after: async () => void (record.movedRefs = (await refs()) !== before),
  };
}

/** Runs `git http-backend` for one request: body to stdin, CGI headers and body from stdout. */
async function serveCgi(
  req: IncomingMessage,
  res: ServerResponse,
  record: GitHttpRequest,
  root: string,
  children: Set<ChildProcess>,
  push: ReturnType<typeof pushRecorder>,
): Promise<void> {
  await push?.before();
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['http-backend'], { env: cgiEnv(req, record, root), detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    child.on('close', () => {
      children.delete(child);
      const end = () => {
        if (!res.headersSent) writeHead(res, record, Buffer.alloc(0));
        res.end();
        resolve();
      };
      if (push) push.after().catch(() => undefined).then(end);
      else end();
    });
    child.on('error', reject);
    res.on('close', () => killGroup(child));
    child.stdin.on('error', () => undefined);
    child.stderr.resume();
    req.pipe(child.stdin);

    let head = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => {
      if (res.headersSent) {
        record.bytesOut += chunk.length;
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const body = writeHead(res, record, head);
      if (body) {
        record.bytesOut += body.length;
        res.write(body);
      }
    });
  });
}

/** Once `buffer` holds the whole CGI header block, sends it as the response head; returns the body part. */
function writeHead(res: ServerResponse, record: GitHttpRequest, buffer: Buffer): Buffer | null {
  const text = buffer.toString('latin1');
  const end = /\r?\n\r?\n/.exec(text);
  if (!end && buffer.length > 0) return null;
  const lines = end ? text.slice(0, end.index).split(/\r?\n/) : [];
  const headers: Record<string, string> = {};
  let status = end ? 200 : 502;
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
    else if (name) headers[name] = value;
  }
  record.status = status;
  res.writeHead(status, headers);
  return end ? buffer.subarray(end.index + end[0].length) : Buffer.alloc(0);
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

import { createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { BUGGY_REPO, runCli, writeScript } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeRepo } from '../support/make-repo.js';

/** Through the built CLI and real bwrap: what the setup step's egress proxy refused is shown. */
describe('greenfix fix: setup egress', () => {
  const SECRET = 'metrics-secret-91c2';
  let dir: string;
  let repo: string;
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${SECRET.length}\r\n\r\n${SECRET}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    dir = tempDir('greenfix-egress-cli-');
    repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
  });
  afterEach(() => cleanup(dir));

  const fix = (setup: string, env: Record<string, string> = {}) => {
    const script = writeScript(dir, [[['finish', { summary: 'nothing to do here', gave_up: true }]]]);
    const args = ['fix', '--repo', repo, '--task', 'look at the setup', '--verify', 'bash test.sh', '--setup', setup, '--model', `scripted:${script}`, '--json'];
    return runCli(args, { GREENFIX_WORKDIR: join(dir, 'work'), ...env });
  };

  it('a setup command reaching for 127.0.0.1 and ::ffff:127.0.0.1 is refused, and the CLI names both', async () => {
    const r = await fix(`curl -sS -f http://127.0.0.1:${port}/metrics; curl -sS -f "http://[::ffff:127.0.0.1]:${port}/"; exit 7`);
    expect(r.stderr).toContain(`greenfix: setup: done: curl`);
    expect(r.stderr).toContain(`exit 7`);
    expect(r.stderr).toContain(`2 connections refused by the egress proxy: 127.0.0.1:${port} loopback, [::ffff:7f00:1]:${port} loopback`);
    expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
    expect(connections).toBe(0);
    expect(r.json).toMatchObject({ egress: { refusedCount: 2, connectedCount: 0, connections: [] } });
  });

  // Issue 24: on a host whose own address counts as public (these machines: 192.0.2.2), a listener
  // on 0.0.0.0 was reachable from setup through the proxy.
  const own = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address;
  (own ? it : it.skip)('a setup command reaching for the host’s own address (a listener on 0.0.0.0) is refused, plain HTTP and CONNECT', async () => {
    let reached = 0;
    const any = createServer((socket) => {
      reached += 1;
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${SECRET.length}\r\n\r\n${SECRET}`);
    });
    await new Promise<void>((resolve) => any.listen(0, '0.0.0.0', resolve));
    const anyPort = (any.address() as AddressInfo).port;
    try {
      const r = await fix(`curl -sS -f http://${own}:${anyPort}/.env; curl -sS -f -p http://${own}:${anyPort}/; exit 0`);
      expect(r.stderr).toContain(`${own}:${anyPort} host's own address ×2`);
      expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
      expect(reached).toBe(0);
    } finally {
      await new Promise<void>((resolve) => any.close(() => resolve()));
    }
  });

  it('GREENFIX_SETUP_ALLOW refuses every other domain before resolving it', async () => {
    const r = await fix('curl -sS -f http://example.com/; exit 0', { GREENFIX_SETUP_ALLOW: 'registry.npmjs.org' });
    expect(r.stderr).toContain('1 connection refused by the egress proxy: example.com:80 not in the allow-list');
  });

  it('an invalid GREENFIX_SETUP_ALLOW is a usage error before anything runs', async () => {
    const r = await fix('true', { GREENFIX_SETUP_ALLOW: 'registry.npmjs.org, 10.0.0.1' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('GREENFIX_SETUP_ALLOW: entry 2 must be a domain name');
  });
});

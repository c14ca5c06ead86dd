import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { testOnlyTreatAsPublic, type Resolver } from '../../src/sandbox/egress-decision.js';
import { startEgressProxy, type EgressProxy, type EgressProxyOptions } from '../../src/sandbox/egress-proxy.js';

/** A TCP server on 127.0.0.1 that counts connections and echoes what it gets, upper-cased. */
async function echoServer(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.on('data', (chunk) => socket.write(chunk.toString().toUpperCase()));
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

async function httpServer(): Promise<{ server: HttpServer; port: number; seen: Array<{ url: string; host: string; body: string; proxyAuth: boolean }> }> {
  const seen: Array<{ url: string; host: string; body: string; proxyAuth: boolean }> = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', host: req.headers.host ?? '', body, proxyAuth: 'proxy-authorization' in req.headers });
      res.writeHead(200, { 'content-type': 'text/plain', 'x-upstream': 'yes' });
      res.end(`got ${req.method} ${req.url} ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

/** Sends raw bytes to the proxy, returns everything it answered until it closed (or `until` matched). */
function exchange(proxyPort: number, send: string, until?: (text: string) => boolean, then?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1');
    let text = '';
    let sentThen = false;
    socket.on('connect', () => socket.write(send));
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (then && !sentThen && text.includes('\r\n\r\n')) {
        sentThen = true;
        socket.write(then);
      }
      if (until?.(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const mapResolver = (map: Record<string, string[]>, calls: string[] = []): Resolver => async (host) => {
  calls.push(host);
  const addresses = map[host];
  if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('the egress proxy', () => {
  let target: Awaited<ReturnType<typeof echoServer>>;
  let web: Awaited<ReturnType<typeof httpServer>>;
  const proxies: EgressProxy[] = [];
  const start = async (options: Omit<EgressProxyOptions, 'listen'> = {}) => {
    const proxy = await startEgressProxy({ listen: { port: 0 }, ...options });
    proxies.push(proxy);
    return { proxy, port: proxy.address as number };
  };

  beforeEach(async () => {
    target = await echoServer();
    web = await httpServer();
  });
  afterEach(async () => {
    for (const proxy of proxies.splice(0)) await proxy.close();
    await new Promise((resolve) => target.server.close(resolve));
    await new Promise((resolve) => web.server.close(resolve));
  });

  describe('attacks', () => {
    it('refuses CONNECT to 127.0.0.1 and to ::ffff:127.0.0.1, names and counts both', async () => {
      const { proxy, port } = await start();
      const a = await exchange(port, `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n\r\n`);
      const b = await exchange(port, `CONNECT [::ffff:127.0.0.1]:${target.port} HTTP/1.1\r\n\r\n`);
      const c = await exchange(port, `CONNECT [::ffff:7f00:1]:${target.port} HTTP/1.1\r\n\r\n`);
      for (const answer of [a, b, c]) expect(answer).toMatch(/^HTTP\/1\.1 403 /);
      expect(a).toContain(`refused 127.0.0.1:${target.port}: loopback`);
      expect(b).toContain(`refused [::ffff:7f00:1]:${target.port}: loopback`);
      expect(target.connections()).toBe(0);
      expect(proxy.report()).toEqual({
        refusedCount: 3,
        refused: [
          { target: `127.0.0.1:${target.port}`, reason: 'loopback', count: 1 },
          { target: `[::ffff:7f00:1]:${target.port}`, reason: 'loopback', count: 2 },
        ],
        connectedCount: 0,
        connections: [],
      });
    });

    describe("the host's own addresses", () => {
      // This machine's first non-loopback IPv4 address; without one, a documentation address the
      // proxy is told is the host's (injected), so the test means the same everywhere.
      const own = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address ?? null;
      const servers: Server[] = [];
      afterEach(async () => {
        for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
      });

      it('refuses CONNECT and plain HTTP to a listener on 0.0.0.0 through the host address, even where its range counts as public', async () => {
        const hits: string[] = [];
        const listener = createServer((socket) => {
          hits.push('connected');
          socket.end('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecret');
        });
        servers.push(listener);
        await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
        const listenPort = (listener.address() as AddressInfo).port;
        const address = own ?? '192.0.2.7';
        const policy = testOnlyTreatAsPublic([`${address}:${listenPort}`]);
        const { proxy, port } = await start({ policy, resolve: mapResolver({ 'me.test': [address] }), ...(own ? {} : { hostAddresses: () => [address] }) });
        const a = await exchange(port, `CONNECT ${address}:${listenPort} HTTP/1.1\r\n\r\n`);
        const b = await exchange(port, `GET http://${address}:${listenPort}/.env HTTP/1.1\r\nHost: x\r\n\r\n`);
        const c = await exchange(port, `GET http://me.test:${listenPort}/.env HTTP/1.1\r\nHost: me.test\r\n\r\n`);
        const d = await exchange(port, `CONNECT [::ffff:${address}]:${listenPort} HTTP/1.1\r\n\r\n`);
        for (const answer of [a, b, c, d]) expect(answer).toMatch(/^HTTP\/1\.1 403 /);
        expect(a).toContain(`refused ${address}:${listenPort}: host's own address`);
        expect(c).toContain(`refused me.test:${listenPort}: host's own address (${address})`);
        expect(hits).toEqual([]);
        expect(proxy.report()).toMatchObject({ refusedCount: 4, connectedCount: 0 });
      });

      it('reads the addresses again at every check: one that appears later is refused from then on', async () => {
        const addresses: string[] = [];
        const policy = testOnlyTreatAsPublic([`127.0.0.1:${target.port}`]);
        const { port } = await start({ policy, hostAddresses: () => addresses });
        expect(await exchange(port, `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\n\r\n`, (t) => t.includes('\r\n\r\n'))).toMatch(/^HTTP\/1\.1 200 /);
        addresses.push('::ffff:127.0.0.1');
        expect(await exchange(port, `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\n\r\n`)).toContain("host's own address");
      });
    });

    it('refuses a plain GET to 127.0.0.1, [::ffff:127.0.0.1] and numeric spellings of loopback', async () => {
      const { proxy, port } = await start();
      for (const host of [`127.0.0.1:${web.port}`, `[::ffff:127.0.0.1]:${web.port}`, `2130706433:${web.port}`, `0x7f.1:${web.port}`, `localhost:${web.port}`]) {
        const answer = await exchange(port, `GET http://${host}/metrics HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
        expect(answer).toMatch(/^HTTP\/1\.1 403 /);
        expect(answer).toMatch(/refused .*: loopback/);
      }
      expect(web.seen).toEqual([]);
      expect(proxy.report().refusedCount).toBe(5);
    });

    it('refuses a name that resolves to loopback, or to loopback among public addresses, and says which', async () => {
      const { proxy, port } = await start({ resolve: mapResolver({ 'rebind.test': ['93.184.216.34', '127.0.0.1'], 'evil.test': ['169.254.169.254'] }) });
      const a = await exchange(port, `CONNECT rebind.test:${target.port} HTTP/1.1\r\n\r\n`);
      const b = await exchange(port, `GET http://evil.test/latest/meta-data/ HTTP/1.1\r\nHost: evil.test\r\n\r\n`);
      expect(a).toContain(`refused rebind.test:${target.port}: loopback (127.0.0.1)`);
      expect(b).toContain('refused evil.test:80: link-local (169.254.169.254)');
      expect(proxy.report().refused).toEqual([
        { target: `rebind.test:${target.port}`, reason: 'loopback', address: '127.0.0.1', count: 1 },
        { target: 'evil.test:80', reason: 'link-local', address: '169.254.169.254', count: 1 },
      ]);
    });

    it('refuses private and metadata literals and unresolvable names', async () => {
      const { proxy, port } = await start({ resolve: mapResolver({}) });
      expect(await exchange(port, 'CONNECT 10.0.0.1:443 HTTP/1.1\r\n\r\n')).toContain('refused 10.0.0.1:443: private');
      expect(await exchange(port, 'GET http://169.254.169.254/ HTTP/1.1\r\n\r\n')).toContain('refused 169.254.169.254:80: link-local');
      expect(await exchange(port, 'CONNECT [fd00::1]:443 HTTP/1.1\r\n\r\n')).toContain('refused [fd00::1]:443: private');
      expect(await exchange(port, 'CONNECT nowhere.test:443 HTTP/1.1\r\n\r\n')).toContain('refused nowhere.test:443: does not resolve');
      expect(proxy.report().refusedCount).toBe(4);
    });

    it('with an allow-list, refuses other domains and literal addresses before resolving them', async () => {
      const calls: string[] = [];
      const { proxy, port } = await start({ allow: [['registry.test', '*.files.test']], resolve: mapResolver({ 'other.test': ['93.184.216.34'] }, calls) });
      expect(await exchange(port, 'CONNECT other.test:443 HTTP/1.1\r\n\r\n')).toContain('refused other.test:443: not in the allow-list');
      expect(await exchange(port, 'GET http://files.test/x HTTP/1.1\r\n\r\n')).toContain('refused files.test:80: not in the allow-list');
      expect(await exchange(port, 'CONNECT 93.184.216.34:443 HTTP/1.1\r\n\r\n')).toContain('not in the allow-list');
      expect(await exchange(port, 'CONNECT 127.0.0.1:6379 HTTP/1.1\r\n\r\n')).toContain('refused 127.0.0.1:6379: loopback');
      expect(calls).toEqual([]);
      expect(proxy.report().refusedCount).toBe(4);
    });

    it('every list must allow the host (the operator and the repository)', async () => {
      const policy = testOnlyTreatAsPublic([`127.0.0.1:${web.port}`]);
      const resolve = mapResolver({ 'a.pkg.test': ['127.0.0.1'], 'b.other.test': ['127.0.0.1'] });
      const { port } = await start({ allow: [['*.pkg.test', '*.other.test'], ['a.pkg.test']], policy, resolve });
      expect(await exchange(port, `GET http://a.pkg.test:${web.port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 /);
      expect(await exchange(port, `GET http://b.other.test:${web.port}/ HTTP/1.1\r\n\r\n`)).toContain('not in the allow-list');
    });

    it('answers malformed requests with 400, and oversized headers with 431 without buffering them', async () => {
      const { proxy, port } = await start();
      expect(await exchange(port, 'GET /relative HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
      expect(await exchange(port, 'GET https://example.com/ HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
      expect(await exchange(port, 'CONNECT nohost HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
      expect(await exchange(port, `GET http://a@127.0.0.1/ HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
      const huge = `GET http://example.test/ HTTP/1.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
      expect(await exchange(port, huge)).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(proxy.report().refusedCount).toBe(0);
    });

    it('caps concurrent connections: one past the cap is closed unanswered, and nothing reaches the target', async () => {
      const policy = testOnlyTreatAsPublic([`127.0.0.1:${target.port}`]);
      const { port } = await start({ policy, maxConnections: 1 });
      const open = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => {
        open.on('data', (c) => c.toString().includes('200 Connection Established') && resolve());
        open.write(`CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\n\r\n`);
      });
      // Closed with no answer: an empty read or a reset, depending on timing.
      const answer = await exchange(port, `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\n\r\n`).catch((e: NodeJS.ErrnoException) => e.code);
      expect(['', 'ECONNRESET', 'EPIPE']).toContain(answer);
      expect(target.connections()).toBe(1);
      open.destroy();
    });

    it('closes an idle tunnel after its idle timeout', async () => {
      const policy = testOnlyTreatAsPublic([`127.0.0.1:${target.port}`]);
      const { port } = await start({ policy, idleTimeoutMs: 200 });
      const answer = await exchange(port, `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\n\r\n`);
      expect(answer).toBe('HTTP/1.1 200 Connection Established\r\n\r\n');
    });
  });

  describe('an allowed public host (a loopback server the test-only policy treats as public)', () => {
    it('tunnels CONNECT bytes both ways to the address it resolved once', async () => {
      const calls: string[] = [];
      const policy = testOnlyTreatAsPublic([`127.0.0.1:${target.port}`]);
      const { proxy, port } = await start({ policy, allow: [['registry.test']], resolve: mapResolver({ 'registry.test': ['127.0.0.1'] }, calls) });
      const answer = await exchange(port, `CONNECT registry.test:${target.port} HTTP/1.1\r\n\r\n`, (t) => t.includes('HELLO TUNNEL'), 'hello tunnel');
      expect(answer).toBe('HTTP/1.1 200 Connection Established\r\n\r\nHELLO TUNNEL');
      expect(calls).toEqual(['registry.test']);
      expect(target.connections()).toBe(1);
      expect(proxy.report().refusedCount).toBe(0);
    });

    it('lists every connection it made, by host and port, with the bytes each way', async () => {
      const policy = testOnlyTreatAsPublic([`127.0.0.1:${target.port}`, `127.0.0.1:${web.port}`]);
      const { proxy, port } = await start({ policy, resolve: mapResolver({ 'registry.test': ['127.0.0.1'] }) });
      await exchange(port, `CONNECT registry.test:${target.port} HTTP/1.1\r\n\r\n`, (t) => t.includes('HELLO'), 'hello');
      const get = await exchange(port, `GET http://127.0.0.1:${web.port}/x HTTP/1.1\r\nConnection: close\r\n\r\n`);
      // (Once seen with bytesIn 0 in a CI run under heavy load: the answer shows whether the upstream request itself failed.)
      expect(get.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      await exchange(port, 'CONNECT 10.1.2.3:443 HTTP/1.1\r\n\r\n');
      const report = proxy.report();
      expect(report).toMatchObject({ refusedCount: 1, connectedCount: 2 });
      expect(report.connections).toEqual([
        { target: `registry.test:${target.port}`, address: '127.0.0.1', count: 1, bytesOut: 5, bytesIn: 5 },
        { target: `127.0.0.1:${web.port}`, count: 1, bytesOut: expect.any(Number), bytesIn: expect.any(Number) },
      ]);
      expect(report.connections![1]!.bytesIn).toBeGreaterThan(100);
    });

    it('forwards a plain HTTP request and its body, without proxy credentials, and the response back', async () => {
      const policy = testOnlyTreatAsPublic([`127.0.0.1:${web.port}`]);
      const { port } = await start({ policy, resolve: mapResolver({ 'registry.test': ['127.0.0.1'] }) });
      const request =
        `POST http://registry.test:${web.port}/pkg?x=1 HTTP/1.1\r\nHost: registry.test:${web.port}\r\n` +
        'Proxy-Authorization: Basic Zm9vOmJhcg==\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello';
      const answer = await exchange(port, request);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain('x-upstream: yes');
      expect(answer).toContain('got POST /pkg?x=1 hello');
      expect(web.seen).toEqual([{ url: '/pkg?x=1', host: `registry.test:${web.port}`, body: 'hello', proxyAuth: false }]);
    });

    it('stops listening and refuses new connections once closed', async () => {
      const { proxy, port } = await start();
      await proxy.close();
      proxies.splice(proxies.indexOf(proxy), 1);
      await expect(exchange(port, 'CONNECT 93.184.216.34:443 HTTP/1.1\r\n\r\n')).rejects.toThrow(/ECONNREFUSED/);
    });
  });
});

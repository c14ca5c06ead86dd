/**
 * The setup step's only way out: an HTTP(S) proxy (CONNECT tunnels and plain absolute-URI HTTP)
 * that resolves each host itself and connects only to addresses the policy accepts (see
 * egress-decision.ts). One instance per setup run; every refusal is counted and named.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { unlinkSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import type { AllowLists } from './domain-allow-list.js';
import { decide, parseTarget, publicEndpoints, systemResolver, type EndpointPolicy, type Resolver } from './egress-decision.js';
import { EgressLedger, type EgressReport } from './egress-ledger.js';
import { refuseHostAddresses, systemHostAddresses, type HostAddresses } from './host-addresses.js';


export interface EgressProxyOptions {
  /** A Unix socket path (the sandbox's way in), or a TCP port on 127.0.0.1 (tests). */
  listen: { path: string } | { port: number };
  allow?: AllowLists;
  policy?: EndpointPolicy;
  resolve?: Resolver;
  /** The machine's own addresses, always refused (tests inject them; default: every interface's, read per check). */
  hostAddresses?: HostAddresses;
  /** A connection with no traffic either way for this long is closed. */
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  maxConnections?: number;
}

export interface EgressProxy {
  /** The Unix socket path, or the TCP port. */
  readonly address: string | number;
  report(): EgressReport;
  close(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade'];

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const policy = refuseHostAddresses(options.policy ?? publicEndpoints, options.hostAddresses ?? systemHostAddresses);
  const rules = { allow: options.allow ?? [], policy, resolve: options.resolve ?? systemResolver };
  const idleMs = options.idleTimeoutMs ?? 60_000;
  const connectMs = options.connectTimeoutMs ?? 15_000;
  const sockets = new Set<Duplex>();
  const ledger = new EgressLedger();

  const track = <T extends Duplex>(socket: T): T => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
  const refuse = ledger.refused.bind(ledger);
  const upstream = (address: string, port: number): Socket => {
    const socket = track(connect({ host: address, port }));
    socket.setTimeout(connectMs, () => socket.destroy(new Error('connect timeout')));
    socket.once('connect', () => socket.setTimeout(idleMs, () => socket.destroy()));
    return socket;
  };

  const server = createServer({ maxHeaderSize: 16 * 1024, headersTimeout: 15_000, requestTimeout: 0, keepAliveTimeout: 5_000, requireHostHeader: false });
  server.maxConnections = options.maxConnections ?? 64;
  server.timeout = idleMs;
  server.on('connection', (socket: Socket) => track(socket));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Headers past maxHeaderSize: 431, as docs/sandbox.md says; anything else unparseable: 400.
    const answer = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${answer}\r\nConnection: close\r\n\r\n`);
    else socket.destroy();
  });

  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const c = client as Socket;
    c.setTimeout?.(idleMs, () => client.destroy());
    client.on('error', () => client.destroy());
    const target = parseTarget(req.url ?? '', null);
    if (!target) return void client.end(status(400, 'greenfix egress proxy: CONNECT needs host:port\n'));
    void decide(target, rules).then(
      (decision) => {
        if (!decision.ok) return void client.end(status(403, refuse(target, decision.reason, decision.address)));
        if (client.destroyed) return;
        const remote = upstream(decision.address, target.port);
        ledger.connected(target, decision.address, remote);
        let established = false;
        remote.once('connect', () => {
          established = true;
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) remote.write(head);
          remote.pipe(client);
          client.pipe(remote);
        });
        remote.on('error', () => {
          if (established || !client.writable) client.destroy();
          else client.end(status(502, 'greenfix egress proxy: upstream connection failed\n'));
        });
        client.on('close', () => remote.destroy());
        remote.on('close', (hadError) => {
          if (established && hadError) client.destroy();
        });
      },
      () => client.destroy(),
    );
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = absoluteHttpUrl(req.url ?? '');
    const target = url ? parseTarget(url.host, 80) : null;
    if (!url || !target) return void plain(res, 400, 'greenfix egress proxy: send an absolute http:// URI (or CONNECT for https)\n');
    void decide(target, rules).then(
      (decision) => {
        if (!decision.ok) return plain(res, 403, refuse(target, decision.reason, decision.address));
        const outgoing = httpRequest({
          host: decision.address,
          family: decision.family,
          port: target.port,
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: { ...forwardable(req.headers), host: url.host },
          agent: false,
          timeout: connectMs,
        });
        outgoing.on('socket', (s) => {
          track(s);
          ledger.connected(target, decision.address, s);
        });
        outgoing.on('timeout', () => outgoing.destroy(new Error('upstream timeout')));
        outgoing.on('response', (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, forwardable(upstreamRes.headers));
          upstreamRes.pipe(res);
          outgoing.setTimeout(idleMs);
        });
        outgoing.on('error', () => (res.headersSent ? res.destroy() : plain(res, 502, 'greenfix egress proxy: upstream request failed\n')));
        res.on('close', () => outgoing.destroy());
        req.pipe(outgoing);
      },
      () => res.destroy(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('path' in options.listen) server.listen(options.listen.path, resolve);
    else server.listen(options.listen.port, '127.0.0.1', resolve);
  });
  const bound = server.address();
  const address = typeof bound === 'string' ? bound : (bound?.port ?? 0);

  return {
    address,
    report: () => ledger.report(),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      if (typeof address === 'string') {
        try {
          unlinkSync(address);
        } catch {
          /* already gone */
        }
      }
    },
  };
}

function absoluteHttpUrl(raw: string): URL | null {
  if (!/^http:\/\//i.test(raw) || !URL.canParse(raw)) return null;
  const url = new URL(raw);
  return url.username || url.password ? null : url;
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const listed = String(headers.connection ?? '').toLowerCase().split(',').map((h) => h.trim());
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.includes(name) || listed.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

function status(code: number, body: string): string {
  const text = code === 403 ? 'Forbidden' : code === 400 ? 'Bad Request' : 'Bad Gateway';
  return `HTTP/1.1 ${code} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function plain(res: ServerResponse, code: number, body: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(code, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

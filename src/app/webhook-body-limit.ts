import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';


/** After a 413, how long the client gets to read it before its connection is cut. */
const CLOSE_AFTER_MS = 2_000;

export interface WebhookBodyLimit {
  maxBytes: number;
  /** Told of each refused request (never with its body). */
  onRefused?: (info: { declaredBytes: number | null; readBytes: number }) => void;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts a size limit in front of `server`'s request listeners (Probot's Server registers its own,
 * whose webhook middleware buffers the whole body before it checks the signature). Every request
 * but GET and HEAD (so the webhook route under any spelling of its path) is read here, chunk by
 * chunk, up to `maxBytes`: a declared `Content-Length` over
 * the limit is refused before a byte is read, a streamed body as soon as it passes the limit;
 * either way the answer is 413 and reading stops (the connection is closed). A body within the
 * limit is handed on as `req.body` (a string), which @octokit/webhooks' middleware takes as the
 * payload instead of reading the stream: it still verifies the signature before parsing.
 */
export function limitWebhookBodies(server: HttpServer, limit: WebhookBodyLimit): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const next: RequestListener = (req, res) => {
    for (const listener of listeners) listener(req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next(req, res);
    const declared = declaredLength(req);
    if (declared !== null && declared > limit.maxBytes) return refuse(req, res, limit, declared, 0);
    const chunks: Buffer[] = [];
    let read = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      read += chunk.length;
      if (read > limit.maxBytes) {
        refused = true;
        chunks.length = 0;
        refuse(req, res, limit, declared, read);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      (req as IncomingMessage & { body?: string }).body = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
      next(req, res);
    });
    req.on('error', () => {
      refused = true;
      chunks.length = 0;
    });
  });
}

function refuse(req: IncomingMessage, res: ServerResponse, limit: WebhookBodyLimit, declared: number | null, read: number): void {
  limit.onRefused?.({ declaredBytes: declared, readBytes: read });
  // Stop reading now. A request nobody has started to read is drained by Node when
  // its response finishes; one that is being read and is paused is not: the HTTP parser stops
  // reading the socket once the request's small buffer is full, and TCP holds the sender back.
  // `read(0)` marks it as being read without taking anything (a declared length over the limit
  // arrives here before the first chunk).
  req.pause();
  req.read(0);
  lingerOnClose(req.socket);
  const body = JSON.stringify({ error: `webhook body over ${limit.maxBytes} bytes` });
  res.shouldKeepAlive = false;
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Node's server ends a `Connection: close` response with `socket.destroySoon()`: a FIN, then a
 * destroy as soon as it is written. The body the client is still sending sits unread in the
 * receive queue, so that destroy is a RST, and a client still writing loses the 413 it has not
 * read yet (its next write fails first). A lingering close instead: half-close now (the client
 * reads the answer and its end), destroy when the client closes or after CLOSE_AFTER_MS.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), CLOSE_AFTER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

function declaredLength(req: IncomingMessage): number | null {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return null;
  return Number(header);
}

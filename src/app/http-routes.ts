import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';

/** Probot's `Handler`: true when the request was answered here, false to let the next one try. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface HttpRoutesOptions {
  metrics: Pick<Metrics, 'render' | 'contentType'>;
  /** Resolves when greenfix can do its work (e.g. `queue.counts()`); rejects otherwise. */
  check: () => Promise<unknown>;
  /** What `check` checks, named in the 503 answer; default `queue`. */
  checkName?: string;
  /** A check that has not answered by then fails; default 2000 ms. */
  timeoutMs?: number;
  /** Told why a health check failed (the HTTP answer says little, on purpose). */
  onUnhealthy?: (error: unknown) => void;
}

/**
 * `GET /healthz` and `GET /metrics`, added to Probot's server with `server.addHandler`.
 * The 503 body names the kind of problem only: health endpoints are often public, and an error
 * message can carry a path, a host or worse.
 */
export function createHttpRoutes(options: HttpRoutesOptions): HttpHandler {
  return async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/healthz' && path !== '/metrics') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'application/json', JSON.stringify({ error: 'method not allowed' }), { allow: 'GET, HEAD' });
      return true;
    }
    if (path === '/healthz') await health(res, options);
    else send(res, 200, options.metrics.contentType, await options.metrics.render());
    return true;
  };
}

async function health(res: ServerResponse, options: HttpRoutesOptions): Promise<void> {
  const what = options.checkName ?? 'queue';
  const outcome = await withTimeout(Promise.resolve().then(() => options.check()), options.timeoutMs ?? 2000);
  if (outcome === 'ok') {
    send(res, 200, 'application/json', JSON.stringify({ status: 'ok' }));
    return;
  }
  options.onUnhealthy?.(outcome === 'timeout' ? new Error(`${what} check timed out`) : outcome.error);
  // A fixed phrase, never the error's message (which may hold paths or credentials).
  const problem = outcome === 'timeout' ? `${what} check timed out` : `${what} unavailable`;
  send(res, 503, 'application/json', JSON.stringify({ status: 'unavailable', problem }));
}

async function withTimeout(
  check: Promise<unknown>,
  ms: number,
): Promise<'ok' | 'timeout' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  const settled = check.then(
    () => 'ok' as const,
    (error: unknown) => ({ error }),
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

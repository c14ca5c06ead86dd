import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRunPageRoute } from '../../src/app/run-page-route.js';
import { buildRunLog } from '../../src/run-log/run-log.js';
import { renderRunPage } from '../../src/run-log/render-html.js';
import { runLinkKey, signRunPath } from '../../src/run-log/run-link.js';

/** The route on a real HTTP server on loopback: headers, methods, a live page, a job that is gone. */
describe('GET /runs/<job id>', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    server = undefined;
  });
  const key = runLinkKey('route-test-link-secret', 'unused');
  const start = async (pages: Record<string, boolean>): Promise<string> => {
    const route = createRunPageRoute({
      key,
      now: Date.now,
      load: async (jobId) => (jobId in pages ? renderRunPage({ jobId, log: buildRunLog([]), diff: null, live: pages[jobId]! }) : null),
    });
    server = createServer((req, res) => {
      void route(req, res).then((handled) => {
        if (!handled) res.writeHead(418).end();
      });
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('serves a live page with its security headers, 404s a job that is gone, 405s other methods, passes other paths on', async () => {
    const base = await start({ running: true });
    const live = await fetch(`${base}${signRunPath(key, 'running', Date.now() + 60_000)}`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(live.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(live.headers.get('referrer-policy')).toBe('no-referrer');
    expect(live.headers.get('x-content-type-options')).toBe('nosniff');
    expect(live.headers.get('cache-control')).toBe('no-store');
    expect(await live.text()).toContain('<meta http-equiv="refresh" content="5">');
    const gone = await fetch(`${base}${signRunPath(key, 'gone', Date.now() + 60_000)}`);
    expect(gone.status).toBe(404);
    const post = await fetch(`${base}${signRunPath(key, 'running', Date.now() + 60_000)}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect((await fetch(`${base}/healthz`)).status).toBe(418); // not the route's
    const forbidden = await fetch(`${base}/runs/running?exp=99999999999&sig=abc`);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.text()).toBe('Forbidden: this link is unsigned, expired or altered.\n');
  });
});

import { request } from 'node:http';
import nock from 'nock';
import { createHttpRoutes, type HttpRoutesOptions } from '../../src/app/http-routes.js';
import { createMetrics } from '../../src/app/metrics.js';
import { startTestServer, type TestServer } from '../support/github-app.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('http routes on a real Probot server', () => {
  let server: TestServer;
  let healthy: () => Promise<unknown>;
  const problems: unknown[] = [];
  const metrics = createMetrics({ processMetrics: false });
  metrics.setJobCounts(async () => ({ queued: 2, running: 1 }));

  const options: HttpRoutesOptions = {
    metrics,
    check: () => healthy(),
    timeoutMs: 200,
    onUnhealthy: (error) => problems.push(error),
  };

  beforeAll(async () => {
    server = await startTestServer({ handlers: [createHttpRoutes(options)] });
  });
  afterAll(async () => {
    await server.stop();
    nock.restore(); // github-app.ts loads nock, which patches node:http for later test files too
  });
  beforeEach(() => {
    healthy = async () => ({ queued: 0 });
    problems.length = 0;
  });

  it('GET /healthz answers 200 ok when the check resolves', async () => {
    const answer = await get(`${server.url}/healthz`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });

  it('GET /healthz answers 503 without the error message when the check fails', async () => {
    healthy = async () => {
      throw new Error('SQLITE_CANTOPEN: /var/lib/greenfix/secret-path.db token=ghs_leak');
    };
    const answer = await get(`${server.url}/healthz`);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ status: 'unavailable', problem: 'queue unavailable' });
    expect(answer.body).not.toMatch(/SQLITE|secret|ghs_/);
    expect(problems).toHaveLength(1);
  });

  it('GET /healthz answers 503 when the check throws synchronously', async () => {
    healthy = () => {
      throw new TypeError('queue closed');
    };
    const answer = await get(`${server.url}/healthz`);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body).problem).toBe('queue unavailable');
  });

  it('GET /healthz answers 503 when the check hangs past the timeout', async () => {
    healthy = () => new Promise(() => {});
    const answer = await get(`${server.url}/healthz`);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body).problem).toBe('queue check timed out');
  });

  it('GET /metrics serves the Prometheus text format with its content type', async () => {
    metrics.webhook('issues', 'enqueued', 0.01);
    const answer = await get(`${server.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(metrics.contentType);
    expect(answer.body).toContain('greenfix_jobs{state="queued"} 2');
    expect(answer.body).toContain('greenfix_webhooks_total{event="issues",result="enqueued"} 1');
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('HEAD gets the status without a body; other methods get 405', async () => {
    const head = await get(`${server.url}/healthz`, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const post = await get(`${server.url}/metrics`, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET, HEAD');
  });

  it('leaves other paths to the next handler (Probot answers 404)', async () => {
    expect((await get(`${server.url}/healthz/extra`)).status).toBe(404);
    expect((await get(`${server.url}/ping`)).body).toBe('PONG');
  });
});

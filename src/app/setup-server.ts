import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { convertManifestCode, ManifestConversionError, type ConvertedApp } from '../github/manifest-conversion.js';
import { appManifest } from './app-manifest.js';
import { createMetrics } from './metrics.js';
import { escapeHtml, renderSetupPage } from './setup-page.js';

export const WEBHOOK_PATH = '/api/github/webhooks';

export interface SetupServerOptions {
  host: string;
  port: number;
  /** app.yml's text. */
  appYml: string;
  /** Where GitHub reaches this server (GREENFIX_PUBLIC_URL); webhooks go to its /api/github/webhooks. */
  publicUrl?: string;
  /** A tunnel's public end (WEBHOOK_PROXY_URL, e.g. a smee.io channel): webhooks go there as is. */
  webhookProxyUrl?: string;
  /** https://github.com, or a GitHub Enterprise Server's address. */
  githubUrl: string;
  /** The REST API's base: https://api.github.com, or `<ghes>/api/v3`. */
  apiBaseUrl: string;
  /** Where the credentials go (the env file). */
  saveCredentials: (app: ConvertedApp) => void;
  /** Told what happened (registered, a failed conversion). */
  log: (message: string) => void;
  /** The code exchange; default GitHub's (manifest-conversion.ts). */
  convert?: (apiBaseUrl: string, code: string) => Promise<ConvertedApp>;
}

export interface SetupServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Setup mode (no APP_ID yet): the page that registers the GitHub App from app.yml, the return from
 * GitHub that saves the credentials, and `/healthz` ("setup", 200: the process is fine, only not
 * registered yet) and `/metrics` as in normal operation. Webhooks are refused until registered.
 */
export async function startSetupServer(o: SetupServerOptions): Promise<SetupServer> {
  const metrics = createMetrics();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      o.log(`setup: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 500, 'text/plain', 'setup failed; see the server log');
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const get = req.method === 'GET' || req.method === 'HEAD';
    if (get && url.pathname === '/healthz') return send(res, 200, 'application/json', JSON.stringify({ status: 'setup' }));
    if (get && url.pathname === '/metrics') return send(res, 200, metrics.contentType, await metrics.render());
    if (url.pathname === WEBHOOK_PATH) return send(res, 503, 'application/json', JSON.stringify({ error: 'greenfix is in setup mode: the GitHub App is not registered yet' }));
    if (get && url.pathname === '/') return redirect(res, '/probot');
    if (get && url.pathname === '/probot') return send(res, 200, 'text/html; charset=utf-8', page(baseOf(req)));
    if (get && url.pathname === '/probot/setup') return finish(url.searchParams.get('code'), res);
    send(res, 404, 'text/plain', 'not found (greenfix is in setup mode: open / to register the GitHub App)');
  }
  function page(base: string): string {
    const webhookUrl = o.webhookProxyUrl ?? `${(o.publicUrl ?? base).replace(/\/+$/, '')}${WEBHOOK_PATH}`;
    const manifest = appManifest(o.appYml, { webhookUrl, redirectUrl: `${base}/probot/setup` });
    return renderSetupPage({
      name: String(manifest.name),
      description: String(manifest.description ?? ''),
      createAppUrl: `${o.githubUrl.replace(/\/+$/, '')}/settings/apps/new`,
      manifest: JSON.stringify(manifest),
      webhookUrl,
      webhookUnreachable: isLocal(webhookUrl),
    });
  }
  async function finish(code: string | null, res: ServerResponse): Promise<void> {
    if (!code) return send(res, 400, 'text/plain', 'code missing: GitHub sends the browser back here with ?code=…');
    let app: ConvertedApp;
    try {
      app = await (o.convert ?? convertManifestCode)(o.apiBaseUrl, code);
    } catch (error) {
      if (!(error instanceof ManifestConversionError)) throw error;
      o.log(`setup: ${error.message}`);
      return send(res, 502, 'text/html; charset=utf-8', `<p>${escapeHtml(error.message)}. <a href="/probot">Start again</a>.</p>`);
    }
    o.saveCredentials(app);
    o.log(`setup: registered GitHub App ${app.id} (${app.html_url}); its credentials are saved. Install it, add the model endpoint, and restart greenfix.`);
    redirect(res, `${app.html_url}/installations/new`);
  }
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(o.port, o.host, () => ready());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}`,
    close: () => new Promise((done) => {
      server.close(() => done());
      server.closeAllConnections();
    }),
  };
}

/** The address the browser used (the redirect back from GitHub must reach the same server). */
function baseOf(req: IncomingMessage): string {
  const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  return `${proto}://${req.headers.host ?? 'localhost'}`;
}

function isLocal(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '0.0.0.0' || host === '[::1]' || host === '[::]' || /^127\./.test(host) || /^(10|192\.168)\./.test(host) || host.endsWith('.local');
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'content-type': 'text/plain', 'cache-control': 'no-store' });
  res.end(`Found. Redirecting to ${location}`);
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

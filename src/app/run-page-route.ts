import type { HttpHandler } from './http-routes.js';
import { checkRunLink, type RunLinkKey } from '../run-log/run-link.js';
import type { RunPage } from '../run-log/render-html.js';

export interface RunPageRouteDeps {
  key: RunLinkKey;
  /** The rendered page of a job, or null when this server has no such job (its directory is gone). */
  load(jobId: string): Promise<RunPage | null>;
  now: () => number;
  onError?: (error: unknown) => void;
}

const FORBIDDEN = 'Forbidden: this link is unsigned, expired or altered.\n';
const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * `GET /runs/<job id>?exp=…&sig=…`: the run page, for whoever holds a link greenfix signed. An
 * unsigned, expired or tampered link is 403 with one fixed sentence: nothing says whether the job exists.
 */
export function createRunPageRoute(deps: RunPageRouteDeps): HttpHandler {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith('/runs/')) return false;
    const text = (status: number, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS, ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      text(405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
      return true;
    }
    const check = checkRunLink(deps.key, url.pathname, url.searchParams, deps.now());
    if (!check.ok) {
      text(403, FORBIDDEN);
      return true;
    }
    let page: RunPage | null;
    try {
      page = await deps.load(check.jobId);
    } catch (error) {
      deps.onError?.(error);
      text(500, 'The run log could not be read.\n');
      return true;
    }
    if (!page) {
      text(404, 'This run is not kept here any more.\n');
      return true;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.csp, ...SECURITY_HEADERS });
    res.end(req.method === 'HEAD' ? undefined : page.html);
    return true;
  };
}

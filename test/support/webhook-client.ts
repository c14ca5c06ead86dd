import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/**
 * Delivers webhooks the way GitHub does (same headers, `sha256=` HMAC of the exact body) to a
 * loopback Probot server, so tests go through Probot's real signature check and routing.
 */

/** `X-Hub-Signature-256` of `body` under `secret`. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export interface WebhookDelivery {
  event: string;
  deliveryId: string;
  payload: unknown;
  secret: string;
  /** Overrides the computed signature (to test a forged or stale one). */
  signature?: string;
}

export interface WebhookAnswer {
  status: number;
  body: string;
  /** Time from sending to the end of the answer. */
  ms: number;
}

/** POSTs one delivery to `url` (e.g. `http://127.0.0.1:<port>/api/github/webhooks`). */
export function sendWebhook(url: string, delivery: WebhookDelivery): Promise<WebhookAnswer> {
  const body = JSON.stringify(delivery.payload);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'GitHub-Hookshot/greenfix-test',
    'x-github-event': delivery.event,
    'x-github-delivery': delivery.deliveryId,
    'x-hub-signature-256': delivery.signature ?? signWebhook(delivery.secret, body),
  };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // agent: false — no pooled keep-alive socket outlives the test and holds the server open.
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface ExampleGroup {
  name: string;
  examples: Array<Record<string, unknown>>;
}

/** Parsed once (4 MB); never handed out, only clones of it. */
const EXAMPLES: readonly ExampleGroup[] = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve('@octokit/webhooks-examples/api.github.com/index.json'),
    'utf8',
  ),
) as ExampleGroup[];

/**
 * A fresh copy of the first example payload of `event` with `action` (and matching `pick`, when
 * given) from `@octokit/webhooks-examples`. Throws when there is none, naming what exists.
 */
export function examplePayload(event: string, action: string, pick?: (payload: any) => boolean): any {
  const group = EXAMPLES.find((g) => g.name === event);
  if (!group) throw new Error(`no webhook examples for event ${event}`);
  const found = group.examples.find((p) => p['action'] === action && (pick ? pick(p) : true));
  if (!found) {
    const actions = [...new Set(group.examples.map((p) => String(p['action'])))].join(', ');
    throw new Error(`no ${event} example with action ${action}${pick ? ' matching pick' : ''} (actions: ${actions})`);
  }
  return structuredClone(found);
}

/**
 * Most examples carry no `installation`, which Probot needs to authenticate as the app's
 * installation: this sets one (in place; returns the payload for chaining).
 */
export function withInstallation<T extends Record<string, unknown>>(payload: T, installationId: number): T {
  Object.assign(payload, { installation: { id: installationId, node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${installationId}` } });
  return payload;
}

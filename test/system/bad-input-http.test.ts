import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { examplePayload, sendWebhook, signWebhook, withInstallation } from '../support/webhook-client.js';
import { getStatus } from '../support/http-status.js';
import { INSTALLATION, SECRET, startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

/** A POST with exactly these headers and bytes: what a broken or hostile sender can do. */
function postRaw(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('bad input at the webhook endpoint', () => {
  let h: Harness;
  let hook: string;
  beforeAll(async () => {
    h = await startHarness({ files: BUGGY_REPO, script: [turn(['finish', { summary: 'nothing', gave_up: true }])], state: { config: 'verify: bash test.sh\n' } });
    hook = `${h.app.url}/api/github/webhooks`;
  });
  afterAll(async () => {
    await h.close();
    nock.restore();
  });

  /** Nothing was recorded and nothing was said on GitHub; the server still answers. */
  async function expectNothingHappened(): Promise<void> {
    await h.settle();
    expect(await h.queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    expect(h.state.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(h.state.comments).toEqual([]);
    expect(await getStatus(`${h.app.url}/healthz`)).toBe(200);
  }

  const headersFor = (body: string, omit: string | null = null): Record<string, string> => {
    const all: Record<string, string> = {
      'content-type': 'application/json',
      'x-github-event': 'issues',
      'x-github-delivery': `bad-${Math.random().toString(36).slice(2)}`,
      'x-hub-signature-256': signWebhook(SECRET, body),
    };
    if (omit) delete all[omit];
    return all;
  };

  it('refuses a correctly signed body that is not JSON', async () => {
    const body = '{"action": "labeled", "issue": {"number": 7,';
    const answer = await postRaw(hook, headersFor(body), body);
    expect(answer.status).toBe(400);
    await expectNothingHappened();
  });

  it('refuses a wrong signature with 400', async () => {
    const answer = await sendWebhook(hook, { event: 'issues', deliveryId: 'forged', payload: labeled(h), secret: 'not-the-secret' });
    expect(answer.status).toBe(400);
    await expectNothingHappened();
  });

  it.each(['x-github-event', 'x-github-delivery', 'x-hub-signature-256'])('refuses a delivery without %s', async (header) => {
    const body = JSON.stringify(labeled(h));
    const answer = await postRaw(hook, headersFor(body, header), body);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain(header); // says which one
    await expectNothingHappened();
  });

  it('accepts an event greenfix does not subscribe to, and does nothing with it', async () => {
    const payload = withInstallation({ ...examplePayload('star', 'created'), repository: h.repository }, INSTALLATION);
    const answer = await sendWebhook(hook, { event: 'star', deliveryId: 'a-star', payload, secret: SECRET });
    expect(answer.status).toBe(200);
    await expectNothingHappened();
  });
});

import { createHmac } from 'node:crypto';
import nock from 'nock';
import type { Probot } from 'probot';
import { nockInstallationToken, startTestServer, testAppCredentials, type TestServer } from './github-app.js';
import { examplePayload, sendWebhook, signWebhook, withInstallation } from './webhook-client.js';

const SECRET = 'test';

describe('signWebhook', () => {
  it('is the sha256= HMAC of the exact body', () => {
    const body = '{"a":1}';
    const expected = createHmac('sha256', SECRET).update(body).digest('hex');
    expect(signWebhook(SECRET, body)).toBe(`sha256=${expected}`);
    expect(signWebhook('other', body)).not.toBe(`sha256=${expected}`);
  });
});

describe('examplePayload', () => {
  it('returns a fresh copy each time', () => {
    const first = examplePayload('issues', 'labeled');
    first.issue.title = 'changed';
    expect(examplePayload('issues', 'labeled').issue.title).not.toBe('changed');
  });

  it('filters with pick and names the actions it has when nothing matches', () => {
    const onPr = examplePayload('issues', 'demilestoned', (p) => p.issue.pull_request !== undefined);
    expect(onPr.issue.pull_request).toBeDefined();
    expect(() => examplePayload('issues', 'labeled', () => false)).toThrow(/matching pick/);
    expect(() => examplePayload('issues', 'exploded')).toThrow(/actions: .*labeled/);
    expect(() => examplePayload('no_such_event', 'created')).toThrow(/no webhook examples/);
  });
});

describe('sendWebhook into a real Probot server', () => {
  let server: TestServer;
  const received: Array<{ id: string; label: string | undefined; token: string }> = [];

  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    const appFn = (app: Probot) => {
      app.on('issues.labeled', async (context) => {
        // Proves the handler got an installation client: its auth asks nock for a token.
        const auth = (await context.octokit.auth({ type: 'installation' })) as { token: string };
        received.push({ id: context.id, label: context.payload.label?.name, token: auth.token });
      });
    };
    server = await startTestServer({ appFn, secret: SECRET, credentials: testAppCredentials() });
  });

  afterAll(async () => {
    await server.stop();
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore(); // unpatch node:http: core modules outlive this file's module registry
  });

  beforeEach(() => {
    received.length = 0;
  });

  it('is accepted with the right secret and reaches the app', async () => {
    const payload = withInstallation(examplePayload('issues', 'labeled'), 4242);
    const scope = nockInstallationToken(4242, 'ghs_abc');
    const answer = await sendWebhook(server.webhookUrl, { event: 'issues', deliveryId: 'd-1', payload, secret: SECRET });
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeGreaterThan(0);
    expect(received).toEqual([{ id: 'd-1', label: payload.label.name, token: 'ghs_abc' }]);
    expect(scope.isDone()).toBe(true);
  });

  it('is rejected with 400 when signed with another secret, and the app never sees it', async () => {
    const payload = examplePayload('issues', 'labeled');
    const answer = await sendWebhook(server.webhookUrl, { event: 'issues', deliveryId: 'd-2', payload, secret: 'wrong' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatch(/signature/i);
    expect(received).toEqual([]);
  });

  it('is rejected with 400 for a signature of a different body', async () => {
    const payload = examplePayload('issues', 'labeled');
    const signature = signWebhook(SECRET, JSON.stringify({ ...payload, action: 'unlabeled' }));
    const answer = await sendWebhook(server.webhookUrl, {
      event: 'issues',
      deliveryId: 'd-3',
      payload,
      secret: SECRET,
      signature,
    });
    expect(answer.status).toBe(400);
    expect(received).toEqual([]);
  });
});

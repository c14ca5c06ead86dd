import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { chromium, type Browser } from 'playwright-core';
import { parse } from 'yaml';
import { MANIFEST_FIELDS } from '../../src/app/app-manifest.js';
import { startSetupServer, type SetupServer } from '../../src/app/setup-server.js';
import { readEnvFile, updateEnvFile } from '../../src/config/env-file.js';
import { cleanup, tempDir } from '../support/temp-dir.js';

const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const APP_YML = readFileSync(new URL('../../app.yml', import.meta.url), 'utf8');
const appYml = parse(APP_YML) as Record<string, unknown>;
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAtest\nline2\n-----END RSA PRIVATE KEY-----\n';

/** greenfix's setup page in Debian's Chromium (playwright-core): what a new user clicks to register the app. */
describe('the setup page', () => {
  let browser: Browser | undefined;
  let server: SetupServer | undefined;
  let dir: string | undefined;
  const logged: string[] = [];
  afterEach(async () => {
    await browser?.close();
    await server?.close();
    if (dir) cleanup(dir);
    browser = undefined;
    server = undefined;
    dir = undefined;
    nock.cleanAll();
  });
  afterAll(() => nock.restore());

  const start = async (urls: { publicUrl?: string; webhookProxyUrl?: string } = {}) => {
    dir = tempDir('greenfix-setup-');
    const envFile = join(dir, 'volume', '.env');
    mkdirSync(join(dir, 'volume'));
    server = await startSetupServer({
      host: '127.0.0.1',
      port: 0,
      appYml: APP_YML,
      ...urls,
      githubUrl: 'https://github.com',
      apiBaseUrl: 'https://api.github.com',
      saveCredentials: (app) => updateEnvFile(envFile, { APP_ID: String(app.id), PRIVATE_KEY: app.pem, WEBHOOK_SECRET: app.webhook_secret }),
      log: (m) => logged.push(m),
    });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    return { envFile, page: await browser.newPage() };
  };

  it('"Register GitHub App" posts app.yml as valid JSON (apostrophes and all), with the webhook URL on the public address', async () => {
    const { page, envFile } = await start({ publicUrl: 'https://greenfix.example.com' });
    const posted: string[] = [];
    await page.route('https://github.com/**', async (route) => {
      const req = route.request();
      if (req.method() === 'POST') posted.push(req.postData() ?? '');
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>GitHub</p>' });
    });
    await page.goto(`${server!.url}/`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Set up greenfix');
    await expect(page.locator('body').textContent()).resolves.not.toContain('First, a tunnel');
    await Promise.all([page.waitForURL('https://github.com/settings/apps/new'), page.getByRole('button', { name: 'Register GitHub App' }).click()]);
    expect(posted).toHaveLength(1);
    const manifest = JSON.parse(new URLSearchParams(posted[0]).get('manifest') ?? '') as Record<string, unknown>;
    expect(String(appYml.description)).toContain("'"); // the character Probot's page cut the manifest at
    expect(manifest).toEqual({
      ...appYml,
      hook_attributes: { url: 'https://greenfix.example.com/api/github/webhooks', active: true },
      redirect_url: `${server!.url}/probot/setup`,
    });
    expect(manifest).toMatchObject({ name: 'greenfix', public: false, default_permissions: appYml.default_permissions, default_events: appYml.default_events });

    // GitHub sends the browser back with a code: exchanged once, the credentials land in the env file.
    const github = nock('https://api.github.com')
      .post('/app-manifests/abc123/conversions')
      .reply(201, { id: 42, html_url: 'https://github.com/apps/greenfix-test', pem: PEM, webhook_secret: 'hook-secret', client_id: 'Iv1.x', client_secret: 'cs' });
    // (Chromium's redirect to github.com would bypass page.route: the answer is read here instead.)
    const back = await fetch(`${server!.url}/probot/setup?code=abc123`, { redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('https://github.com/apps/greenfix-test/installations/new');
    expect(github.isDone()).toBe(true);
    expect(readEnvFile(envFile)).toEqual({ APP_ID: '42', PRIVATE_KEY: PEM, WEBHOOK_SECRET: 'hook-secret' });
    expect(logged.join('\n')).toContain('registered GitHub App 42');
  }, 60_000);

  it('without a tunnel or public URL: the page says to set one up first; a smee channel is the webhook URL as is', async () => {
    const { page } = await start();
    await page.goto(`${server!.url}/probot`);
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain('First, a tunnel');
    expect(text).toContain('WEBHOOK_PROXY_URL');
    const manifest = JSON.parse((await page.locator('input[name=manifest]').getAttribute('value')) ?? '') as { hook_attributes: { url: string } };
    expect(manifest.hook_attributes.url).toBe(`${server!.url}/api/github/webhooks`);
    await browser?.close();
    await server?.close();
    if (dir) cleanup(dir);
    const proxied = await start({ webhookProxyUrl: 'https://smee.io/abc123' });
    await proxied.page.goto(`${server!.url}/probot`);
    const viaSmee = JSON.parse((await proxied.page.locator('input[name=manifest]').getAttribute('value')) ?? '') as { hook_attributes: { url: string } };
    expect(viaSmee.hook_attributes.url).toBe('https://smee.io/abc123');
  }, 60_000);

  it('/healthz says "setup" (200), /metrics answers, webhooks are refused until registered, a bad code is said', async () => {
    await start();
    const health = await fetch(`${server!.url}/healthz`);
    expect(health.status).toBe(200);
    await expect(health.json()).resolves.toEqual({ status: 'setup' });
    const metrics = await fetch(`${server!.url}/metrics`);
    expect(metrics.status).toBe(200);
    await expect(metrics.text()).resolves.toContain('greenfix_webhooks_total');
    expect((await fetch(`${server!.url}/api/github/webhooks`, { method: 'POST', body: '{}' })).status).toBe(503);
    nock('https://api.github.com').post('/app-manifests/expired/conversions').reply(404, { message: 'Not Found' });
    const bad = await fetch(`${server!.url}/probot/setup?code=expired`);
    expect(bad.status).toBe(502);
    await expect(bad.text()).resolves.toContain('GitHub answered 404');
  }, 60_000);
});

describe('app.yml as a GitHub App manifest', () => {
  it('holds only fields GitHub\'s manifest flow accepts, and leaves the URLs of this server to the setup page', () => {
    for (const key of Object.keys(appYml)) expect({ key, accepted: (MANIFEST_FIELDS as readonly string[]).includes(key) }).toEqual({ key, accepted: true });
    expect(appYml).not.toHaveProperty('hook_attributes');
    expect(appYml).not.toHaveProperty('redirect_url');
    expect(typeof appYml.url).toBe('string');
  });
});

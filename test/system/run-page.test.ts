import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { chromium, type Browser } from 'playwright-core';
import { runLinkKey, signRunPath } from '../../src/run-log/run-link.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { SECRET, startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const PUBLIC = 'https://greenfix.example.com';
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const SCRIPT = [
  turn(['run', { command: `echo "leaked ${TOKEN}"` }]),
  turn(['run_tests', {}]),
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'add() adds <b>now</b> @octocat' }]),
];

/** The run page in a real headless Chromium (Debian's chromium, driven by playwright-core). */
describe('the run page', () => {
  let h: Harness;
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
    await h?.close();
  });
  afterAll(() => nock.restore());

  it('a signed link shows the steps, the diff and the output; bad links get 403; nothing leaves the origin', async () => {
    const key = runLinkKey(undefined, SECRET);
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' }, runPage: { publicUrl: PUBLIC, key } });
    await h.send('issues', labeled(h));
    await h.settle();
    const status = h.state.comments.find((c) => c.body.includes('greenfix:status'))?.body ?? '';
    const link = /\[Run page →\]\((https:\/\/greenfix\.example\.com\/runs\/[^)\s]+)\)/.exec(status)?.[1];
    expect(link).toBeDefined();
    const path = link!.slice(PUBLIC.length);
    const app = h.app.url!;

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
    const answer = await page.goto(`${app}${path}`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);

    await expect(page.locator('h1').textContent()).resolves.toBe('What greenfix did');
    const summaries = await page.locator('details > summary').allTextContents();
    expect(summaries).toHaveLength(5);
    expect(summaries[1]).toMatch(/^2 · run_tests — ✗ exit 1/);
    expect(summaries[3]).toMatch(/^4 · run_tests — ✓ exit 0, verified [0-9a-f]{12}/);
    await expect(page.locator('#diff').textContent()).resolves.toContain('+add() { echo $(( $1 + $2 )); }');

    // An expanded step shows its output; a closed one does not.
    const failing = page.locator('details[data-step="2"] pre.output');
    expect(await failing.isVisible()).toBe(false);
    await page.locator('details[data-step="2"] > summary').click();
    expect(await failing.isVisible()).toBe(true);
    await expect(failing.textContent()).resolves.toContain('add 2 3 gave -1');

    // Redacted like logs, escaped like any untrusted text, readable on a phone.
    const html = await page.content();
    expect(html).not.toContain(TOKEN);
    expect(html).toContain('leaked [redacted]');
    expect(html).toContain('add() adds &lt;b&gt;now&lt;/b&gt; @octocat');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    const shot = join(h.dir, 'run-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    if (process.env.GREENFIX_TEST_SCREENSHOT) copyFileSync(shot, process.env.GREENFIX_TEST_SCREENSHOT);

    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => new URL(u).origin !== new URL(app).origin)).toEqual([]);
    expect(problems).toEqual([]);

    // Tampered, unsigned, expired, another job's signature: 403 and one sentence.
    const jobId = /\/runs\/([^?]+)/.exec(path)![1]!;
    const tampered = path.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    const expired = signRunPath(key, jobId, Date.now() - 1_000);
    const otherJob = path.replace(`/runs/${jobId}`, '/runs/another-job');
    const longer = path.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 86_400}`);
    for (const bad of [tampered, `/runs/${jobId}`, expired, otherJob, longer]) {
      const r = await page.goto(`${app}${bad}`);
      expect(r?.status()).toBe(403);
      await expect(page.locator('body').textContent()).resolves.toBe('Forbidden: this link is unsigned, expired or altered.\n');
    }
    expect(existsSync(shot)).toBe(true);
  }, 120_000);
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { renderEvalHtml } from '../../src/eval/render-eval-html.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { record } from './records.js';

const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const HOSTILE = '<script>window.pwned = 1</script><img src="http://evil.example/x.png">';

/** The eval's HTML report in a real headless Chromium: one self-contained page, readable, inert. */
describe('the eval report page', () => {
  let dir: string;
  let browser: Browser | undefined;
  beforeAll(() => {
    dir = tempDir('greenfix-eval-page-');
  });
  afterAll(async () => {
    await browser?.close();
    cleanup(dir);
  });

  it('shows the rate, a row per instance and each change beside its gold change; repository text stays text', async () => {
    const records = [
      record({ instance_id: 'resolved-1', status: 'resolved' }),
      record({ instance_id: 'wrong-1', status: 'verified_wrong', check: { passed: false, failToPass: ['sub subtracts'], passToPass: [], reason: 'FAIL_TO_PASS not passing: sub subtracts (did not run)' } }),
      record({ instance_id: 'refused-1', status: 'not_verified', gate: `gave up\nlast test run: ${HOSTILE}`, diff: `+${HOSTILE}\n`, task: HOSTILE }),
    ];
    const file = join(dir, 'report.html');
    writeFileSync(file, renderEvalHtml(records, ['skipped-1']));

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
    await page.goto(pathToFileURL(file).href);

    await expect(page.locator('#headline').textContent()).resolves.toBe('1 of 3 resolved (33.3 %) · 1 verified but wrong · cost $0.0300');
    const rows = await page.locator('#instances tr').allTextContents();
    expect(rows).toHaveLength(4);
    expect(rows[2]).toContain('verified wrong');
    expect(rows[2]).toContain('FAIL_TO_PASS not passing: sub subtracts (did not run)');
    await expect(page.locator('#summary').textContent()).resolves.toContain('cost per resolved instance$0.0300');
    await expect(page.locator('body').textContent()).resolves.toContain('Not run (the --max-cost budget was spent): skipped-1');

    // Each instance folds open to its change beside the gold change, diff lines coloured.
    const refused = page.locator('details[id="refused-1"]');
    const change = refused.locator('.pair > div').nth(0).locator('pre');
    expect(await change.isVisible()).toBe(false);
    await refused.locator('summary').click();
    expect(await change.isVisible()).toBe(true);
    const [left, right] = [await change.boundingBox(), await refused.locator('.pair > div').nth(1).locator('pre').boundingBox()];
    expect(left!.x + left!.width).toBeLessThanOrEqual(right!.x);
    expect(Math.abs(left!.y - right!.y)).toBeLessThan(2);
    await expect(refused.locator('.pair > div').nth(1).locator('.add').textContent()).resolves.toBe('+exports.sub = (a, b) => a - b;');

    // What came from the repository or the model is shown, never run or fetched.
    await expect(change.textContent()).resolves.toContain(HOSTILE);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(problems).toEqual([]);
  }, 60_000);
});

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { startHarness, type Harness } from './harness.js';
import { commented } from './issue-payloads.js';

const HEALTHY = {
  'package.json': JSON.stringify({ name: 'healthy', version: '1.0.0', private: true, scripts: { test: 'node --test --test-reporter=tap' } }),
  'a.test.mjs': "import { test } from 'node:test';\ntest('works', () => {});\ntest('red', () => { throw new Error('x'); });\n",
};

/** `/agent doctor` through the app: a job in a worker (sandboxed), answered in one comment, no branch or PR. */
describe('/agent doctor', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());
  const doctorComment = () => h.state.comments.find((c) => c.body.includes('<!-- greenfix:doctor -->'))?.body ?? '';

  it('a repository with detected commands and a red test: the commands, durations, baseline, format and the verdict', async () => {
    h = await startHarness({ files: HEALTHY, script: [] });
    const answer = await h.send('issue_comment', commented(h, '/agent doctor'));
    expect(answer.status).toBe(200);
    await h.settle();
    const body = doctorComment();
    expect(body).toMatch(/^\*\*greenfix doctor\*\* on `main @ [0-9a-f]{7}`: ✅ greenfix can work on this repository with `verify_mode: no_new_failures`: 1 of 2 tests already fail on the base/);
    expect(body).toContain('- verify: npm test (detected)');
    expect(body).toContain('- setup: npm install (detected)');
    expect(body).toMatch(/- setup ran: exit code 0 in [\d.]+ s\n/);
    expect(body).toMatch(/- tests ran: exit code 1 in [\d.]+ s\n/);
    expect(body).toContain('- report format: node --test (TAP)');
    expect(body).toContain('- baseline on main: 2 tests, 1 failing: red');
    expect(body).toMatch(/<summary>Test output on the base \(tail\)<\/summary>[\s\S]*not ok 2 - red/);
    expect(h.state.pulls).toHaveLength(0);
    expect(h.state.reactions).toContainEqual(expect.objectContaining({ content: 'eyes' }));
  });

  it('a repository without tests, and one whose setup fails: not ready, and why', async () => {
    h = await startHarness({ files: { 'README.md': 'nothing\n' }, script: [] });
    await h.send('issue_comment', commented(h, '/agent doctor'));
    await h.settle();
    expect(doctorComment()).toContain('❌ greenfix cannot work on this repository yet: no test command was detected');
    await h.close();

    h = await startHarness({ files: HEALTHY, script: [], state: { config: 'setup: echo "no route to registry" >&2; exit 3\n' } });
    await h.send('issue_comment', commented(h, '/agent doctor'));
    await h.settle();
    const body = doctorComment();
    expect(body).toContain('❌ greenfix cannot work on this repository yet: the setup command failed (exit code 3)');
    expect(body).toMatch(/- setup: echo "no route to registry" .*; exit 3 \(configured\)\n- setup ran: exit code 3 in [\d.]+ s\n/);
    expect(body).toContain('no route to registry');
  });
});

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const FILES = { ...BUGGY_REPO, '.github/workflows/ci.yml': 'on: push\njobs: {}\n' };
const TOUCH_WORKFLOW = [
  turn(['edit_file', { path: '.github/workflows/ci.yml', old: 'on: push', new: 'on: [push, pull_request]' }]),
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'fixed add() and CI triggers' }]),
];

describe('what greenfix may change', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('pushes nothing when the verified fix touches .github/workflows/, and says why', async () => {
    h = await startHarness({ files: FILES, script: TOUCH_WORKFLOW, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.remoteTree('greenfix/issue-7')).toBeNull();
    expect(h.state.pulls).toHaveLength(0);
    const [status] = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status?.body).toContain('.github/workflows/ci.yml');
    expect(status?.body).toContain('not pushed');
    const [job] = await h.queue.listBySubject('1296269#7');
    expect(job).toMatchObject({ state: 'failed', attempts: 1 }); // a policy refusal is not retried
  });

  it('allows it when the repository opts in, and serves health and metrics meanwhile', async () => {
    h = await startHarness({ files: FILES, script: TOUCH_WORKFLOW, state: { config: 'verify: bash test.sh\npaths:\n  allow_workflows: true\n' } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.remoteTree('greenfix/issue-7')).not.toBeNull();
    expect(h.state.pulls).toHaveLength(1);
    const health = await fetch(`${h.app.url}/healthz`);
    expect(health.status).toBe(200);
    const metrics = await (await fetch(`${h.app.url}/metrics`)).text();
    expect(metrics).toMatch(/greenfix_webhooks_total\{event="issues",result="enqueued"\} 1/);
    expect(metrics).toMatch(/greenfix_jobs\{state="succeeded"\} 1/);
  });
});

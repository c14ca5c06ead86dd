import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { commented, labeled } from './issue-payloads.js';

const GIVE_UP = [turn(['finish', { summary: 'nothing to do', gave_up: true }])];

describe('what the webhook accepts', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('makes one job of a delivery that arrives twice', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { config: 'verify: bash test.sh\n' } });
    const first = await h.send('issues', labeled(h), 'same-delivery');
    const second = await h.send('issues', labeled(h), 'same-delivery');
    expect([first.status, second.status]).toEqual([200, 200]);
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(1);
    expect(h.state.reactions.filter((r) => r.content === 'eyes')).toHaveLength(1);
    expect(h.state.comments.filter((c) => c.body.includes('greenfix:status'))).toHaveLength(1);
  });

  it.each([
    ['a signed `/agent retry` comment', 'issue_comment', (x: Harness) => commented(x, '/agent retry')],
    ['a label event', 'issues', (x: Harness) => labeled(x)],
  ])('answers %s replayed under new delivery ids once: one job, one status comment, one 👀', async (_name, event, payload) => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { config: 'verify: bash test.sh\n' } });
    const answers = [];
    for (const id of ['replay-1', 'replay-2', 'replay-3']) answers.push((await h.send(event, payload(h), id)).status);
    expect(answers).toEqual([200, 200, 200]);
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(1);
    expect(h.state.comments.filter((c) => c.body.includes('greenfix:status'))).toHaveLength(1);
    expect(h.state.reactions.filter((r) => r.content === 'eyes')).toHaveLength(1);
  });

  it('answers a sender without write permission once, and starts nothing', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { roles: { mallory: 'triage' } } });
    const asMallory = () => labeled(h, { sender: { login: 'mallory', type: 'User', id: 9 } });
    await h.send('issues', asMallory());
    await h.send('issues', asMallory());
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(0);
    const refusals = h.state.comments.filter((c) => c.issue === 7);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.body).toContain('write, maintain or admin');
  });

  it('never lets a bot start a job', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP });
    await h.send('issues', labeled(h, { sender: { login: 'dependabot[bot]', type: 'Bot', id: 2 } }));
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(0);
    expect(h.state.comments).toHaveLength(0);
  });

  it.each([
    ['an unknown key', 'lable: fix-me\nmax_steps: 1000\n', ['lable', 'max_steps']],
    ['a file that is not YAML', 'verify: [bash test.sh\n', ['not valid YAML']],
  ])('lists every problem of a config with %s in one comment, and starts nothing', async (_name, config, expected) => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { config } });
    await h.send('issues', labeled(h));
    await h.send('issues', labeled(h));
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(0);
    const comments = h.state.comments.filter((c) => c.body.includes('greenfix:config-errors'));
    expect(comments).toHaveLength(1);
    for (const text of expected) expect(comments[0]!.body).toContain(text);
  });

  it('rejects a delivery with a wrong signature and records nothing', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP });
    const { sendWebhook } = await import('../support/webhook-client.js');
    const answer = await sendWebhook(`${h.app.url}/api/github/webhooks`, { event: 'issues', deliveryId: 'forged', payload: labeled(h), secret: 'not-the-secret' });
    expect(answer.status).toBe(400);
    expect(await h.queue.counts()).toMatchObject({ queued: 0, running: 0, succeeded: 0 });
  });
});

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { AfterAnswer } from '../../src/app/after-answer.js';
import { greenfixApp } from '../../src/app/greenfix-app.js';
import { createMetrics } from '../../src/app/metrics.js';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { collected } from '../support/collected.js';
import { nockInstallationToken, startTestServer, type TestServer } from '../support/github-app.js';
import { examplePayload, sendWebhook, withInstallation } from '../support/webhook-client.js';

const INSTALLATION = 4242;

/** An AfterAnswer that keeps its tasks until the test runs them: a burst's tasks waiting their turn. */
function heldTasks(): AfterAnswer & { tasks: Array<{ what: string; task: () => Promise<unknown> }> } {
  const tasks: Array<{ what: string; task: () => Promise<unknown> }> = [];
  return { tasks, run: (what, task) => void tasks.push({ what, task }), idle: async () => undefined };
}

describe('work after the answer holds only what it needs of its delivery', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    nock.cleanAll();
  });
  afterAll(() => nock.restore());

  it('a job waiting for its sender check keeps neither the payload nor Probot’s context, and is still authorised when its turn comes', async () => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    const queue = openSqliteQueue({ path: ':memory:' });
    const afterAnswer = heldTasks();
    // Beside greenfix, an app that sees the same event: Probot hands both handlers one context.
    const seen: Array<WeakRef<object>> = [];
    server = await startTestServer({
      secret: 'test-secret',
      appFn: async (app, options) => {
        await greenfixApp({ queue, metrics: createMetrics(), wake: () => undefined, afterAnswer })(app, options);
        app.on('issues.labeled', async (context) => void seen.push(new WeakRef(context), new WeakRef(context.payload)));
      },
    });
    nockInstallationToken(INSTALLATION);
    nock('https://api.github.com').get('/app').reply(200, { id: 1, slug: 'greenfix' });
    const payload = withInstallation(examplePayload('issues', 'labeled'), INSTALLATION);
    payload.label = { ...payload.label, name: 'agent-fix' };
    payload.sender = { ...payload.sender, login: 'octo-writer' };
    const { repository, issue } = payload as { repository: { id: number; owner: { login: string }; name: string }; issue: { number: number } };
    const subject = `${repository.id}#${issue.number}`;
    const path = `/repos/${repository.owner.login}/${repository.name}`;

    expect((await sendWebhook(server.webhookUrl, { event: 'issues', deliveryId: 'delivery-held', payload, secret: 'test-secret' })).status).toBe(200);
    expect((await queue.listBySubject(subject)).map((job) => job.state)).toEqual(['authorizing']);
    const authorise = afterAnswer.tasks.find((t) => t.what === 'authorising the sender');
    expect(authorise).toBeDefined();

    // While the task waits, the delivery it came from is garbage: its parsed payload and its context.
    expect(seen).toHaveLength(2);
    for (const ref of seen) expect(await collected(ref)).toBe(true);

    // Its turn: no config file (the default label), GitHub says the sender may write; the job is let in, 👀 on the issue.
    nock('https://api.github.com').get(/\/contents\/\.github(%2F|\/)greenfix\.yml/).times(2).reply(404, { message: 'Not Found' });
    const permission = nock('https://api.github.com').get(`${path}/collaborators/octo-writer/permission`).reply(200, { permission: 'write', role_name: 'write', user: { login: 'octo-writer' } });
    const reaction = nock('https://api.github.com').post(`${path}/issues/${issue.number}/reactions`, { content: 'eyes' }).reply(201, { id: 1, content: 'eyes' });
    await authorise!.task();
    expect((await queue.listBySubject(subject)).map((job) => job.state)).toEqual(['queued']);
    await afterAnswer.tasks.find((t) => t.what === 'reaction')!.task();
    expect(permission.isDone() && reaction.isDone()).toBe(true);
    await queue.close();
  });
});

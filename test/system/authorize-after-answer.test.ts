import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import nock from 'nock';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { examplePayload, withInstallation } from '../support/webhook-client.js';
import { INSTALLATION, startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const GIVE_UP = [turn(['finish', { summary: 'nothing to do', gave_up: true }])];
const PERMISSION = /\/collaborators\/[^/]+\/permission$/;
const CONFIG_READ = /\/contents\/\.github(%2F|\/)greenfix\.yml/;
const ROLES = { octocat: 'admin', mallory: 'triage' };

const issue = (number: number) => ({ number, state: 'open', title: `issue ${number}`, body: 'add 2 3 should be 5', user: { login: 'alice', id: 50, type: 'User' } });
const onIssue = (h: Harness, number: number, login: string) => labeled(h, { issue: issue(number), sender: { login, type: 'User', id: login.length } });

describe('the sender is checked after the answer, and a job never decided is decided later', () => {
  let h: Harness | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await h?.close();
    h = undefined;
    for (const dir of dirs.splice(0)) cleanup(dir);
  });
  afterAll(() => nock.restore());

  it('answers before GitHub says who the sender is; a job whose check failed waits, unseen, until a later sweep decides it', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { config: 'verify: bash test.sh\n', roles: ROLES }, authorizeSweep: { everyMs: 0, strandedAfterMs: 0 } });
    h.state.failures.push({ method: 'GET', path: PERMISSION, status: 403, apply: false, times: 1_000 });
    expect((await h.send('issues', onIssue(h, 7, 'octocat'))).status).toBe(200);
    expect((await h.send('issues', onIssue(h, 8, 'mallory'))).status).toBe(200);
    await h.settle();
    // Recorded, not lost; nothing visible: no 👀, no status comment, no refusal, nothing ran.
    expect((await h.queue.listBySubject('1296269#7')).map((j) => j.state)).toEqual(['authorizing']);
    expect((await h.queue.listBySubject('1296269#8')).map((j) => j.state)).toEqual(['authorizing']);
    expect(h.state.comments).toEqual([]);
    expect(h.state.reactions).toEqual([]);

    h.state.failures.length = 0;
    await h.send('issues', labeled(h, { label: { name: 'documentation' } })); // any delivery starts the sweep
    await h.settle();
    const [allowed] = await h.queue.listBySubject('1296269#7');
    expect(allowed!.attempts).toBeGreaterThanOrEqual(1);
    expect(['succeeded', 'failed']).toContain(allowed!.state);
    expect(h.state.comments.filter((c) => c.issue === 7 && c.body.includes('greenfix:status'))).toHaveLength(1);
    expect(await h.queue.listBySubject('1296269#8')).toEqual([]);
    const refusals = h.state.comments.filter((c) => c.issue === 8);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.body).toContain('write, maintain or admin');
  });

  it('after a crash between the answer and the check, the next receiver decides at start: a refused sender is answered once, nothing runs', async () => {
    const dir = tempDir('greenfix-authorize-');
    dirs.push(dir);
    const path = join(dir, 'queue.db');
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { roles: ROLES }, queue: openSqliteQueue({ path }) });
    // The receiver that recorded it dies before its check returns (here: the check fails, and it stops).
    h.state.failures.push({ method: 'GET', path: PERMISSION, status: 403, apply: false, times: 1_000 });
    await h.send('issues', onIssue(h, 8, 'mallory'));
    await h.settle();
    await h.close();
    h = undefined;

    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { roles: ROLES }, queue: openSqliteQueue({ path }) });
    await h.settle();
    expect(await h.queue.listBySubject('1296269#8')).toEqual([]);
    expect(await h.queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    const refusals = h.state.comments.filter((c) => c.issue === 8);
    expect(refusals.map((c) => c.body)).toEqual([expect.stringContaining('has triage permission; write, maintain or admin is needed')]);
    expect(h.state.reactions).toEqual([]);
  });

  it('a burst from one sender costs one permission call and one config read (20 deliveries at once), all answered, each refused once', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { roles: ROLES } });
    const asked = (path: RegExp) => h!.state.requests.filter((r) => path.test(r.split(' ')[1] ?? '')).length;
    const numbers = Array.from({ length: 20 }, (_, i) => 100 + i);
    const answers = await Promise.all(numbers.map((n) => h!.send('issues', onIssue(h!, n, 'mallory'))));
    expect(answers.map((a) => a.status)).toEqual(numbers.map(() => 200));
    await h.settle();
    expect(asked(PERMISSION)).toBe(1);
    expect(asked(CONFIG_READ)).toBe(2); // one read: the repository's file, then the organisation's `.github` (Probot's base)
    // As for a lone delivery: no job left, the refusal said on each issue (up to the repository's limit), nothing else.
    expect(await h.queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    const refused = new Set(h.state.comments.map((c) => c.issue));
    expect(h.state.comments.every((c) => c.body.includes('has triage permission; write, maintain or admin is needed'))).toBe(true);
    expect(refused.size).toBe(h.state.comments.length);
    expect(refused.size).toBeGreaterThan(0);
    expect(h.state.reactions).toEqual([]);
  });

  it('keeps a permission for a while, and forgets it when a member event says it changed', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { config: 'verify: bash test.sh\n', roles: { octocat: 'admin', maria: 'write' } } });
    const asked = () => h!.state.requests.filter((r) => PERMISSION.test(r.split(' ')[1] ?? '')).length;
    await h.send('issues', onIssue(h, 7, 'maria'));
    await h.settle();
    await h.send('issues', onIssue(h, 9, 'maria'));
    await h.settle();
    expect(asked()).toBe(1);
    expect(h.state.reactions.filter((r) => r.content === 'eyes')).toHaveLength(2);
    // maria loses write access: GitHub sends `member` (an app with the Members permission subscribed to it).
    h.state.roles['maria'] = 'read';
    const edited = examplePayload('member', 'edited');
    await h.send('member', withInstallation({ ...edited, repository: h.repository, member: { ...edited.member, login: 'maria' } }, INSTALLATION));
    await h.send('issues', onIssue(h, 11, 'maria'));
    await h.settle();
    expect(asked()).toBe(2);
    expect(await h.queue.listBySubject('1296269#11')).toEqual([]);
    expect(h.state.comments.filter((c) => c.issue === 11).map((c) => c.body)).toEqual([expect.stringContaining('has read permission; write, maintain or admin is needed')]);
  });
});

import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { answer } from '../support/fake-github.js';
import { withInstallation } from '../support/webhook-client.js';
import { INSTALLATION, startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const GIVE_UP = [turn(['finish', { summary: 'nothing to do', gave_up: true }])];
const CONFIG_READ = /\/contents\/\.github(%2F|\/)greenfix\.yml/;
const PERMISSION = /\/collaborators\/[^/]+\/permission$/;

const onIssue = (h: Harness, number: number, label: string) =>
  labeled(h, { issue: { number, state: 'open', title: `issue ${number}`, body: 'add 2 3 should be 5', user: { login: 'alice', id: 50, type: 'User' } }, label: { name: label } });

/**
 * Holds the next read of `.github/greenfix.yml` until the test releases it, then answers it from
 * the fake GitHub. Registered before the harness's own interceptor, so it is matched first.
 */
function holdNextConfigRead(state: () => Harness['state']): { requested: Promise<void>; release: () => void } {
  let requested!: () => void;
  let release!: () => void;
  const asked = new Promise<void>((resolve) => (requested = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  nock('https://api.github.com')
    .get(CONFIG_READ)
    .reply(function reply(uri, _body, callback) {
      const accept = String(this.req.headers.accept ?? '');
      requested();
      void released.then(() => {
        const r = answer(state(), 'GET', uri, undefined, accept, String(this.req.headers.authorization ?? ''));
        callback(null, [r.status, r.raw ?? (r.body as nock.ReplyBody), r.headers ?? {}]);
      });
    });
  return { requested: asked, release };
}

/** Fails instead of hanging when the answer waits for something the test holds. */
function within<T>(what: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([what, bound]).finally(() => clearTimeout(timer));
}

describe('the repository config is read after the answer', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  afterAll(() => nock.restore());

  it('answers a label delivery while the config read is still in flight; the job waits, unseen, until the config names its label', async () => {
    const held = holdNextConfigRead(() => h!.state);
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { config: 'label: fix-me\nverify: bash test.sh\n' } });
    const answered = h.send('issues', onIssue(h, 7, 'fix-me'));
    await held.requested;
    // The read is held from here on: an answer that waited for it would never come.
    expect((await within(answered, 10_000, 'the delivery was not answered while the config read was held')).status).toBe(200);
    expect((await h.queue.listBySubject('1296269#7')).map((j) => j.state)).toEqual(['authorizing']);
    expect(h.state.requests.filter((r) => PERMISSION.test(r.split(' ')[1] ?? ''))).toEqual([]);
    expect(h.state.comments).toEqual([]);
    expect(h.state.reactions).toEqual([]);

    held.release();
    await h.settle();
    const [job] = await h.queue.listBySubject('1296269#7');
    expect(['succeeded', 'failed']).toContain(job!.state);
    expect(job!.request.configGate).toEqual({ label: 'fix-me' });
    expect(h.state.reactions.filter((r) => r.content === 'eyes')).toHaveLength(1);
    expect(h.state.comments.filter((c) => c.issue === 7 && c.body.includes('greenfix:status'))).toHaveLength(1);
  });

  it('a label that is not the configured one ends with nothing said and no permission asked; a known config decides before the answer; a push of the file forgets it', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: GIVE_UP, state: { config: 'label: fix-me\nverify: bash test.sh\n', roles: { octocat: 'admin' } } });
    const reads = () => h!.state.requests.filter((r) => CONFIG_READ.test(r)).length;
    const asked = () => h!.state.requests.filter((r) => PERMISSION.test(r.split(' ')[1] ?? '')).length;

    // Not known yet: recorded, answered, then removed once the config says its label is another.
    const first = await h.send('issues', onIssue(h, 8, 'agent-fix'));
    expect(first.status).toBe(200);
    await h.settle();
    expect(await h.queue.listBySubject('1296269#8')).toEqual([]);
    expect(h.state.comments).toEqual([]);
    expect(asked()).toBe(0);
    expect(reads()).toBe(1);

    // Known now (kept 30 s): decided before the answer, with no job and no read.
    await h.send('issues', onIssue(h, 9, 'bug'));
    await h.settle();
    expect(await h.queue.listBySubject('1296269#9')).toEqual([]);
    expect(reads()).toBe(1);

    // The file changes on the default branch: the push forgets the cached copy.
    h.state.config = 'label: other\nverify: bash test.sh\n';
    const push = { ref: 'refs/heads/main', before: 'a'.repeat(40), after: 'b'.repeat(40), created: false, deleted: false, forced: false, repository: h.repository, commits: [{ id: 'b'.repeat(40), added: [], removed: [], modified: ['.github/greenfix.yml'] }] };
    expect((await h.send('push', withInstallation(push, INSTALLATION))).status).toBe(200);
    await h.send('issues', onIssue(h, 10, 'other'));
    await h.settle();
    expect(reads()).toBeGreaterThanOrEqual(2);
    const [job] = await h.queue.listBySubject('1296269#10');
    expect(['succeeded', 'failed']).toContain(job!.state);
    expect(h.state.comments.filter((c) => c.issue === 8 || c.issue === 9)).toEqual([]);
  });
});

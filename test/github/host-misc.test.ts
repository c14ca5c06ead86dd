import nock from 'nock';
import { api, fixture, OWNER, REPO, setupNock, teardownNock } from './octokit-fixture.js';

const PERM = (user: string) => `/repos/${OWNER}/${REPO}/collaborators/${user}/permission`;

beforeEach(setupNock);
afterEach(teardownNock);
// nock patches node:http for the whole worker; later files in it must get it back.
afterAll(() => nock.restore());

describe('permission', () => {
  it.each([
    [{ permission: 'write', role_name: 'maintain' }, 'maintain'],
    [{ permission: 'read', role_name: 'triage' }, 'triage'],
    [{ permission: 'admin', role_name: 'admin' }, 'admin'],
    [{ permission: 'write', role_name: 'release-manager' }, 'write'],
    [{ permission: 'none', role_name: 'weird' }, 'none'],
  ])('%j → %s', async (data, expected) => {
    const f = fixture();
    const scope = api(f.seen).get(PERM('ada')).reply(200, { ...data, user: { login: 'ada' } });
    await expect(f.host.permission('ada')).resolves.toBe(expected);
    expect(scope.isDone()).toBe(true);
  });

  it('404 (not a collaborator) → none', async () => {
    const f = fixture();
    const scope = api(f.seen).get(PERM('eve')).reply(404, { message: 'Not Found' });
    await expect(f.host.permission('eve')).resolves.toBe('none');
    expect(scope.isDone()).toBe(true);
  });

  it('a server error is not taken for "none": it is thrown, typed', async () => {
    const f = fixture();
    // octokit's retry plugin retries a GET three times before giving up
    const scope = api(f.seen).get(PERM('eve')).times(4).reply(500, {});
    await expect(f.host.permission('eve')).rejects.toMatchObject({ name: 'GitHubError', kind: 'server', status: 500 });
    expect(scope.isDone()).toBe(true);
  });
});

describe('react', () => {
  it('reacts to an issue and to a comment', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .post(`/repos/${OWNER}/${REPO}/issues/3/reactions`, { content: 'eyes' }).reply(201, { id: 1 })
      .post(`/repos/${OWNER}/${REPO}/issues/comments/99/reactions`, { content: '+1' }).reply(200, { id: 2 });
    await f.host.react(3, null, 'eyes');
    await f.host.react(3, 99, '+1');
    expect(scope.isDone()).toBe(true);
  });

  it('a failure throws a typed error at once (no retry delaying the webhook answer)', async () => {
    const f = fixture();
    const scope = api(f.seen).post(`/repos/${OWNER}/${REPO}/issues/3/reactions`).reply(503, {});
    await expect(f.host.react(3, null, 'eyes')).rejects.toMatchObject({ kind: 'server', status: 503 });
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toHaveLength(1);
  });
});

describe('gitToken', () => {
  it('returns the installation token from octokit auth, without any request', async () => {
    const f = fixture();
    await expect(f.host.gitToken()).resolves.toBe('test-token');
    expect(f.seen).toEqual([]);
  });
});

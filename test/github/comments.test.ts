import nock from 'nock';
import { GitHubError } from '../../src/github/errors.js';
import { api, fixture, OWNER, REPO, setupNock, teardownNock, testOctokit } from './octokit-fixture.js';

const MARKER = '<!-- greenfix:status job=j1 -->';
const COMMENTS = `/repos/${OWNER}/${REPO}/issues/7/comments`;
const BOT = { login: 'greenfix[bot]', type: 'Bot' };
const marked = (id: number, text: string) => ({ id, body: `${MARKER}\n${text}`, user: BOT });

beforeEach(setupNock);
afterEach(teardownNock);
// nock patches node:http for the whole worker; later files in it must get it back.
afterAll(() => nock.restore());

describe('upsertComment', () => {
  it('creates the comment when no comment carries the marker', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [{ id: 1, body: 'unrelated' }])
      .post(COMMENTS, (b: { body: string }) => b.body === `${MARKER}\nhello`).reply(201, { id: 42 });
    await expect(f.host.upsertComment(7, MARKER, 'hello')).resolves.toBe(42);
    expect(scope.isDone()).toBe(true);
  });

  it("never edits a person's comment that carries the marker: greenfix makes its own", async () => {
    const f = fixture();
    const planted = { id: 5, body: `${MARKER}\nplanted`, user: { login: 'mallory', type: 'User' } };
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [planted])
      .post(COMMENTS, (b: { body: string }) => b.body === `${MARKER}\nhello`).reply(201, { id: 43 });
    await expect(f.host.upsertComment(7, MARKER, 'hello')).resolves.toBe(43);
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${COMMENTS}`, `POST ${COMMENTS}`]);
  });

  it('edits the marked comment in place, reading every page', async () => {
    const f = fixture();
    const page2 = `https://api.github.com/repositories/1/issues/7/comments?per_page=100&page=2`;
    const scope = api(f.seen)
      .get(COMMENTS).query(true)
      .reply(200, [{ id: 1, body: 'first' }], { link: `<${page2}>; rel="next", <${page2}>; rel="last"` })
      .get('/repositories/1/issues/7/comments').query(true).reply(200, [marked(9, 'old')])
      .patch(`/repos/${OWNER}/${REPO}/issues/comments/9`, { body: `${MARKER}\nnew` }).reply(200, { id: 9 });
    await expect(f.host.upsertComment(7, MARKER, 'new')).resolves.toBe(9);
    expect(scope.isDone()).toBe(true);
  });

  it('sends nothing when the marked comment already says the same', async () => {
    const f = fixture();
    const scope = api(f.seen).get(COMMENTS).query(true).reply(200, [marked(9, 'same')]);
    await expect(f.host.upsertComment(7, MARKER, `${MARKER}\nsame`)).resolves.toBe(9);
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${COMMENTS}`]);
  });

  it('502 on create where GitHub made the comment anyway: re-lists, finds it, no second POST', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(502, { message: 'Bad Gateway' })
      .get(COMMENTS).query(true).reply(200, [marked(77, 'hello')]);
    await expect(f.host.upsertComment(7, MARKER, 'hello')).resolves.toBe(77);
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${COMMENTS}`, `POST ${COMMENTS}`, `GET ${COMMENTS}`]);
  });

  it('502 then 201: the POST is not re-sent by octokit, only after a re-list', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(502, { message: 'Bad Gateway' })
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(201, { id: 43 });
    await expect(f.host.upsertComment(7, MARKER, 'hello')).resolves.toBe(43);
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${COMMENTS}`, `POST ${COMMENTS}`, `GET ${COMMENTS}`, `POST ${COMMENTS}`]);
    expect(f.sleeps).toEqual([1000]);
  });

  it('the same with Probot\'s default throttling on (writes spaced a second apart)', async () => {
    const f = fixture(3, true);
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(502, { message: 'Bad Gateway' })
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(201, { id: 45 });
    await expect(f.host.upsertComment(7, MARKER, 'hello')).resolves.toBe(45);
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${COMMENTS}`, `POST ${COMMENTS}`, `GET ${COMMENTS}`, `POST ${COMMENTS}`]);
  });

  it('429 with retry-after: waits what GitHub asked, re-lists, then creates', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(429, { message: 'slow down' }, { 'retry-after': '7' })
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(201, { id: 44 });
    await expect(f.host.upsertComment(7, MARKER, 'hello')).resolves.toBe(44);
    expect(scope.isDone()).toBe(true);
    expect(f.sleeps).toEqual([7000]);
  });

  it('a network error on create counts as maybe-created too', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).replyWithError('socket hang up')
      .get(COMMENTS).query(true).reply(200, [marked(78, 'hello')]);
    await expect(f.host.upsertComment(7, MARKER, 'hello')).resolves.toBe(78);
    expect(scope.isDone()).toBe(true);
  });

  it('gives up after createAttempts transient failures with a typed error', async () => {
    const f = fixture(2);
    const scope = api(f.seen)
      .get(COMMENTS).query(true).times(2).reply(200, [])
      .post(COMMENTS).times(2).reply(503, { message: 'unavailable' });
    const err = await f.host.upsertComment(7, MARKER, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubError);
    expect(err).toMatchObject({ kind: 'server', status: 503 });
    expect(scope.isDone()).toBe(true);
    expect(f.seen.filter((s) => s.startsWith('POST'))).toHaveLength(2);
  });

  it('a 403 on create is not retried', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(200, [])
      .post(COMMENTS).reply(403, { message: 'Resource not accessible by integration' });
    await expect(f.host.upsertComment(7, MARKER, 'x')).rejects.toMatchObject({ kind: 'forbidden', status: 403 });
    expect(scope.isDone()).toBe(true);
    expect(f.sleeps).toEqual([]);
  });
});

describe('comment', () => {
  it('posts once and returns the id', async () => {
    const f = fixture();
    const scope = api(f.seen).post(COMMENTS, { body: 'no' }).reply(201, { id: 5 });
    await expect(f.host.comment(7, 'no')).resolves.toBe(5);
    expect(scope.isDone()).toBe(true);
  });

  it('octokit retries a GET after 5xx (the retry plugin is active), so retries:0 on POST is what stops it', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(COMMENTS).query(true).reply(502, {})
      .get(COMMENTS).query(true).reply(200, [marked(3, 'x')]);
    await expect(f.host.upsertComment(7, MARKER, 'x')).resolves.toBe(3);
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${COMMENTS}`, `GET ${COMMENTS}`]);
  });

  it('control: without retries:0 the plugin re-sends a POST answered 502 (a duplicate on GitHub)', async () => {
    const seen: string[] = [];
    const scope = api(seen).post(COMMENTS).reply(502, {}).post(COMMENTS).reply(201, { id: 6 });
    const { data } = await testOctokit().rest.issues.createComment({ owner: OWNER, repo: REPO, issue_number: 7, body: 'x' });
    expect(data.id).toBe(6);
    expect(scope.isDone()).toBe(true);
    expect(seen).toEqual([`POST ${COMMENTS}`, `POST ${COMMENTS}`]);
  });
});

describe('updateComment', () => {
  it('edits by id with one PATCH', async () => {
    const f = fixture();
    const scope = api(f.seen).patch(`/repos/${OWNER}/${REPO}/issues/comments/9`, { body: 'new' }).reply(200, { id: 9 });
    await expect(f.host.updateComment(9, 'new')).resolves.toBe(true);
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`PATCH /repos/${OWNER}/${REPO}/issues/comments/9`]);
  });

  it('answers false for a comment someone deleted, so the caller upserts', async () => {
    const f = fixture();
    api(f.seen).patch(`/repos/${OWNER}/${REPO}/issues/comments/9`).reply(404, { message: 'Not Found' });
    await expect(f.host.updateComment(9, 'new')).resolves.toBe(false);
  });
});

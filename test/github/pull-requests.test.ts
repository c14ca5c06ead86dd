import nock from 'nock';
import { api, fixture, OWNER, REPO, setupNock, teardownNock } from './octokit-fixture.js';

const PULLS = `/repos/${OWNER}/${REPO}/pulls`;
const draft = { head: 'greenfix/issue-7', base: 'main', title: 'Fix #7: crash', body: 'new body', draft: true };

function pr(number: number, over: Record<string, unknown> = {}) {
  return {
    number,
    html_url: `https://github.com/${OWNER}/${REPO}/pull/${number}`,
    state: 'open',
    draft: false,
    title: 'old title',
    body: 'old body',
    head: { ref: 'greenfix/issue-7', sha: 'a'.repeat(40), repo: { full_name: `${OWNER}/${REPO}` } },
    base: { ref: 'main' },
    user: { login: 'greenfix[bot]' },
    ...over,
  };
}

beforeEach(setupNock);
afterEach(teardownNock);
// nock patches node:http for the whole worker; later files in it must get it back.
afterAll(() => nock.restore());

describe('upsertPullRequest', () => {
  it('creates the PR (draft as asked) when the branch has none, and says so', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(PULLS).query({ state: 'open', head: `${OWNER}:greenfix/issue-7`, base: 'main' }).reply(200, [])
      .post(PULLS, { ...draft }).reply(201, pr(12));
    await expect(f.host.upsertPullRequest(draft)).resolves.toEqual({ number: 12, url: pr(12).html_url, created: true });
    expect(scope.isDone()).toBe(true);
  });

  it('updates the open PR of the branch (title and body, not draft) without a POST', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(PULLS).query({ state: 'open', head: `${OWNER}:greenfix/issue-7`, base: 'main' }).reply(200, [pr(9)])
      .patch(`${PULLS}/9`, (b: Record<string, unknown>) => b.title === draft.title && b.body === draft.body && !('draft' in b))
      .reply(200, pr(9));
    await expect(f.host.upsertPullRequest(draft)).resolves.toEqual({ number: 9, url: pr(9).html_url, created: false });
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${PULLS}`, `PATCH ${PULLS}/9`]);
  });

  it('422 "already exists" (opened in between): finds the open PR by owner:branch and updates it', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(PULLS).query(true).reply(200, [])
      .post(PULLS).reply(422, { message: 'Validation Failed', errors: [{ message: 'A pull request already exists for octo:greenfix/issue-7.' }] })
      .get(PULLS).query({ state: 'open', head: `${OWNER}:greenfix/issue-7`, base: 'main' }).reply(200, [pr(9)])
      .patch(`${PULLS}/9`, (b: Record<string, unknown>) => b.title === draft.title && b.body === draft.body && !('draft' in b))
      .reply(200, pr(9));
    await expect(f.host.upsertPullRequest(draft)).resolves.toEqual({ number: 9, url: pr(9).html_url, created: false });
    expect(scope.isDone()).toBe(true);
  });

  it('502 on create where GitHub opened it anyway: finds it, no second POST, no needless PATCH', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(PULLS).query(true).reply(200, [])
      .post(PULLS).reply(502, {})
      .get(PULLS).query(true).reply(200, [pr(10, { title: draft.title, body: draft.body })]);
    await expect(f.host.upsertPullRequest(draft)).resolves.toMatchObject({ number: 10, created: false });
    expect(scope.isDone()).toBe(true);
    expect(f.seen).toEqual([`GET ${PULLS}`, `POST ${PULLS}`, `GET ${PULLS}`]);
  });

  it('another 422 (no open PR for the branch) is thrown as a validation error', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(PULLS).query(true).reply(200, [])
      .post(PULLS).reply(422, { message: 'Validation Failed', errors: [{ message: 'No commits between main and greenfix/issue-7' }] })
      .get(PULLS).query(true).reply(200, []);
    await expect(f.host.upsertPullRequest(draft)).rejects.toMatchObject({ name: 'GitHubError', kind: 'validation', status: 422 });
    expect(scope.isDone()).toBe(true);
  });
});

describe('getPullRequest', () => {
  it('maps GitHub fields, including a deleted fork', async () => {
    const f = fixture();
    const scope = api(f.seen).get(`${PULLS}/5`).reply(200, pr(5, { state: 'closed', draft: true, body: null, head: { ref: 'x', sha: 'b'.repeat(40), repo: null } }));
    await expect(f.host.getPullRequest(5)).resolves.toEqual({
      number: 5,
      url: pr(5).html_url,
      state: 'closed',
      draft: true,
      title: 'old title',
      body: '',
      headRef: 'x',
      headSha: 'b'.repeat(40),
      headRepoFullName: null,
      baseRef: 'main',
      author: 'greenfix[bot]',
    });
    expect(scope.isDone()).toBe(true);
  });

  it('404 is a not_found GitHubError', async () => {
    const f = fixture();
    const scope = api(f.seen).get(`${PULLS}/6`).reply(404, { message: 'Not Found' });
    await expect(f.host.getPullRequest(6)).rejects.toMatchObject({ kind: 'not_found', status: 404 });
    expect(scope.isDone()).toBe(true);
  });
});

describe('openPullRequestsFrom', () => {
  it("every page of open PRs, keeping this repository's branches under the prefix (not forks, not other branches)", async () => {
    const f = fixture();
    const fork = { ref: 'greenfix/issue-3', sha: 'b'.repeat(40), repo: { full_name: 'someone/widgets' } };
    const page1 = [pr(1), pr(2, { head: { ...pr(2).head, ref: 'feature/login' } }), pr(3, { head: fork })];
    const page2 = [pr(4, { head: { ...pr(4).head, ref: 'greenfix/issue-9' } }), pr(5, { head: { ...pr(5).head, repo: null } })];
    const scope = api(f.seen)
      .get(PULLS).query({ state: 'open', per_page: 100 })
      .reply(200, page1, { link: `<https://api.github.com${PULLS}?state=open&per_page=100&page=2>; rel="next", <https://api.github.com${PULLS}?state=open&per_page=100&page=2>; rel="last"` })
      .get(PULLS).query({ state: 'open', per_page: 100, page: 2 }).reply(200, page2);
    const open = await f.host.openPullRequestsFrom('greenfix/');
    expect(open.map((p) => [p.number, p.headRef])).toEqual([[1, 'greenfix/issue-7'], [4, 'greenfix/issue-9']]);
    expect(scope.isDone()).toBe(true);
  });
});

import type { FakeCheckRun, FakeGitHubState, FakePull } from './fake-github-state.js';
import { addReply, answerGraphql, reviewCommentJson, reviewJson } from './fake-github-reviews.js';

export interface FakeResponse {
  status: number;
  body?: unknown;
  /** A non-JSON answer (raw file content, logs). */
  raw?: string;
  headers?: Record<string, string>;
}

type Params = Record<string, string>;
type Route = [method: string, pattern: RegExp, handle: (s: FakeGitHubState, p: Params, body: any, query: URLSearchParams, accept: string) => FakeResponse];

const R = '/repos/(?<owner>[^/]+)/(?<repo>[^/]+)';
const json = (status: number, body: unknown): FakeResponse => ({ status, body });

const routes: Route[] = [
  ['GET', /^\/app$/, (s) => json(200, { id: s.appId, slug: s.appSlug, name: s.appSlug })],
  // Newest first, one page (a test's log is short).
  ['GET', /^\/app\/hook\/deliveries$/, (s) => json(200, [...s.deliveries].reverse().map((d) => ({ ...d, redelivery: false, duration: 0.01, status: d.status_code < 300 ? 'OK' : 'failed', installation_id: 1, repository_id: 1 })))],
  ['POST', /^\/app\/hook\/deliveries\/(?<id>\d+)\/attempts$/, (s, p) => {
    const delivery = s.deliveries.find((d) => d.id === Number(p.id));
    if (!delivery) return json(404, { message: 'Not Found' });
    s.redeliveries.push(delivery.id);
    s.onRedeliver?.(delivery);
    return json(202, {});
  }],
  ['POST', /^\/app\/installations\/\d+\/access_tokens$/, (s, _p, b) => {
    const body = { ...(b?.repository_ids ? { repository_ids: b.repository_ids as number[] } : {}), ...(b?.permissions ? { permissions: b.permissions as Record<string, string> } : {}) };
    const gitOnly = JSON.stringify(body.permissions) === JSON.stringify({ contents: 'write' });
    const token = gitOnly ? s.token : `${s.token}_${s.tokenRequests.length + 1}`;
    s.tokenRequests.push({ body, token });
    const permissions = body.permissions ?? { contents: 'write', pull_requests: 'write', issues: 'write', checks: 'write', actions: 'read', metadata: 'read' };
    return json(201, { token, expires_at: new Date(Date.now() + s.tokenLifetimeMs).toISOString(), permissions, repository_selection: body.repository_ids ? 'selected' : 'all' });
  }],
  ['GET', new RegExp(`^${R}/collaborators/(?<user>[^/]+)/permission$`), (s, p) => {
    const role = s.roles[decodeURIComponent(p.user ?? '')] ?? 'read';
    const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
    return json(200, { permission, role_name: role, user: { login: p.user } });
  }],
  ['GET', new RegExp(`^${R}/contents/(?<path>.+)$`), (s, p, _b, _q, accept) => {
    const mine = p.owner === s.owner && p.repo === s.repo && decodeURIComponent(p.path ?? '') === '.github/greenfix.yml';
    if (!mine || s.config === null) return json(404, { message: 'Not Found' });
    return accept.includes('raw') ? { status: 200, raw: s.config } : json(200, { type: 'file', encoding: 'base64', content: Buffer.from(s.config).toString('base64') });
  }],
  ['POST', new RegExp(`^${R}/issues/(?<n>\\d+)/reactions$`), (s, p, b) => react(s, Number(p.n), null, b.content)],
  ['POST', new RegExp(`^${R}/issues/comments/(?<id>\\d+)/reactions$`), (s, p, b) => {
    const comment = s.comments.find((c) => c.id === Number(p.id));
    return react(s, comment?.issue ?? 0, Number(p.id), b.content);
  }],
  ['GET', new RegExp(`^${R}/issues/(?<n>\\d+)$`), (s, p) => {
    const closed = s.closedIssues[Number(p.n)];
    const user = (login: string) => ({ login, id: 1, type: 'User' });
    return json(200, { number: Number(p.n), state: closed ? 'closed' : 'open', user: user(closed?.author ?? 'octocat'), closed_by: closed ? user(closed.closedBy) : null });
  }],
  ['GET', new RegExp(`^${R}/issues/(?<n>\\d+)/comments$`), (s, p) => json(200, s.comments.filter((c) => c.issue === Number(p.n)).map((c) => commentJson(s, c)))],
  ['POST', new RegExp(`^${R}/issues/(?<n>\\d+)/comments$`), (s, p, b) => {
    const comment = { id: s.nextId++, issue: Number(p.n), body: String(b.body), user: `${s.appSlug}[bot]` };
    s.comments.push(comment);
    return json(201, commentJson(s, comment));
  }],
  ['PATCH', new RegExp(`^${R}/issues/comments/(?<id>\\d+)$`), (s, p, b) => {
    const comment = s.comments.find((c) => c.id === Number(p.id));
    if (!comment) return json(404, { message: 'Not Found' });
    comment.body = String(b.body);
    return json(200, commentJson(s, comment));
  }],
  ['GET', new RegExp(`^${R}/pulls/(?<n>\\d+)$`), (s, p) => {
    const pull = s.pulls.find((x) => x.number === Number(p.n));
    return pull ? json(200, pullJson(s, pull)) : json(404, { message: 'Not Found' });
  }],
  ['GET', new RegExp(`^${R}/pulls$`), (s, _p, _b, q) => {
    const head = q.get('head')?.split(':')[1];
    const state = q.get('state') ?? 'open';
    return json(200, s.pulls.filter((x) => (!head || x.head === head) && (state === 'all' || x.state === state)).map((x) => pullJson(s, x)));
  }],
  ['POST', new RegExp(`^${R}/pulls$`), (s, _p, b) => {
    if (s.pulls.some((x) => x.head === b.head && x.state === 'open')) {
      return json(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${s.owner}:${b.head}.` }] });
    }
    const pull: FakePull = { number: s.nextId++, head: b.head, headSha: '', base: b.base, title: b.title, body: b.body ?? '', draft: Boolean(b.draft), state: 'open', author: `${s.appSlug}[bot]`, headRepo: `${s.owner}/${s.repo}` };
    s.pulls.push(pull);
    return json(201, pullJson(s, pull));
  }],
  ['PATCH', new RegExp(`^${R}/pulls/(?<n>\\d+)$`), (s, p, b) => {
    const pull = s.pulls.find((x) => x.number === Number(p.n));
    if (!pull) return json(404, { message: 'Not Found' });
    Object.assign(pull, b.title ? { title: b.title } : {}, b.body !== undefined ? { body: b.body } : {});
    return json(200, pullJson(s, pull));
  }],
  ['POST', /^(?:\/api)?\/graphql$/, (s, _p, b) => answerGraphql(s, b)],
  ['GET', new RegExp(`^${R}/pulls/(?<n>\\d+)/comments$`), (s, p) =>
    json(200, s.reviewComments.filter((c) => c.pull === Number(p.n)).sort((a, b) => a.id - b.id).map((c) => reviewCommentJson(s, c)))],
  // GitHub's OpenAPI description: this endpoint is not enabled for GitHub Apps, so an installation token gets 403.
  ['POST', new RegExp(`^${R}/pulls/(?<n>\\d+)/comments/(?<id>\\d+)/replies$`), () => json(403, { message: 'Resource not accessible by integration' })],
  // A reply is `in_reply_to` (every other field ignored, as GitHub does); a new thread is not something greenfix makes.
  ['POST', new RegExp(`^${R}/pulls/(?<n>\\d+)/comments$`), (s, p, b) => {
    if (typeof b.in_reply_to !== 'number') return json(422, { message: 'the fake GitHub makes replies only (in_reply_to)' });
    const reply = addReply(s, Number(p.n), b.in_reply_to, String(b.body ?? ''));
    return reply ? json(201, reviewCommentJson(s, reply)) : json(404, { message: 'Not Found' });
  }],
  ['GET', new RegExp(`^${R}/pulls/(?<n>\\d+)/reviews$`), (s, p) => json(200, s.reviews.filter((r) => r.pull === Number(p.n)).map((r) => reviewJson(s, r)))],
  ['GET', new RegExp(`^${R}/commits/(?<ref>[^/]+)/check-runs$`), (s, p, _b, q) => {
    const name = q.get('check_name');
    const ref = decodeURIComponent(p.ref ?? '');
    // GitHub lists check runs by sha or by branch name (then: the branch's head commit).
    const sha = /^[0-9a-f]{40}$/.test(ref) ? ref : (s.resolveRef?.(`refs/heads/${ref}`) ?? ref);
    const runs = s.checkRuns.filter((r) => r.head_sha === sha && (!name || r.name === name));
    return json(200, { total_count: runs.length, check_runs: runs.map((r) => checkJson(s, r)) });
  }],
  ['POST', new RegExp(`^${R}/check-runs$`), (s, _p, b) => {
    const run = { id: s.nextId++, name: b.name, head_sha: b.head_sha, external_id: b.external_id ?? '', status: b.status ?? 'queued', conclusion: b.conclusion ?? null, output: b.output ?? {}, app: { id: s.appId, slug: s.appSlug } };
    s.checkRuns.push(run);
    return json(201, checkJson(s, run));
  }],
  ['PATCH', new RegExp(`^${R}/check-runs/(?<id>\\d+)$`), (s, p, b) => {
    const run = s.checkRuns.find((r) => r.id === Number(p.id));
    if (!run) return json(404, { message: 'Not Found' });
    Object.assign(run, { status: b.status ?? run.status, conclusion: b.conclusion ?? run.conclusion, output: b.output ?? run.output });
    return json(200, checkJson(s, run));
  }],
  ['GET', new RegExp(`^${R}/check-runs/(?<id>\\d+)/annotations$`), () => json(200, [])],
  ['GET', new RegExp(`^${R}/actions/jobs/(?<id>\\d+)/logs$`), (s, p) => {
    const log = s.jobLogs[Number(p.id)];
    return log === undefined ? json(404, { message: 'Not Found' }) : { status: 200, raw: log };
  }],
];

/** Answers one GitHub REST request from the state, or 404 for an endpoint the fake lacks. */
export function routeFakeGitHub(state: FakeGitHubState, method: string, url: string, body: unknown, accept: string): FakeResponse {
  const parsed = new URL(url, 'http://x');
  const path = parsed.pathname.replace(/^\/api\/v3/, '');
  for (const [m, pattern, handle] of routes) {
    const match = m === method ? pattern.exec(path) : null;
    if (match) return handle(state, match.groups ?? {}, body ?? {}, parsed.searchParams, accept);
  }
  return json(404, { message: `fake GitHub has no ${method} ${path}` });
}

function react(s: FakeGitHubState, issue: number, commentId: number | null, content: string): FakeResponse {
  s.reactions.push({ issue, commentId, content });
  return json(201, { id: s.nextId++, content });
}

function commentJson(s: FakeGitHubState, c: { id: number; issue: number; body: string; user: string }) {
  return { id: c.id, body: c.body, user: { login: c.user, type: c.user.endsWith('[bot]') ? 'Bot' : 'User' }, html_url: `https://github.com/${s.owner}/${s.repo}/issues/${c.issue}#issuecomment-${c.id}` };
}

function pullJson(s: FakeGitHubState, p: FakePull) {
  const [headOwner, headName] = p.headRepo.split('/');
  return {
    number: p.number,
    html_url: `https://github.com/${s.owner}/${s.repo}/pull/${p.number}`,
    state: p.state,
    draft: p.draft,
    title: p.title,
    body: p.body,
    user: { login: p.author },
    head: { ref: p.head, sha: headSha(s, p), repo: { full_name: p.headRepo, name: headName, owner: { login: headOwner } } },
    base: { ref: p.base, repo: { full_name: `${s.owner}/${s.repo}` } },
  };
}

function checkJson(s: FakeGitHubState, r: FakeCheckRun) {
  return { ...r, html_url: `https://github.com/${s.owner}/${s.repo}/runs/${r.id}` };
}

/** A same-repository PR's head is its branch in the remote (when wired); a fork's is as stored. */
function headSha(s: FakeGitHubState, p: FakePull): string {
  const own = p.headRepo === `${s.owner}/${s.repo}`;
  return (own ? s.resolveRef?.(`refs/heads/${p.head}`) : null) ?? p.headSha;
}

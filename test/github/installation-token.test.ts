import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { gitTokenScope, mintInstallationToken, renewingToken, restTokenScope, type MintedToken } from '../../src/github/installation-token.js';
import { scopedOctokit } from '../../src/github/scoped-octokit.js';
import { newFakeGitHubState, nockFakeGitHub } from '../support/fake-github.js';
import { testAppCredentials } from '../support/github-app.js';

const MIN = 60_000;

describe('renewingToken (injected clock)', () => {
  function source(lifetimeMs: number) {
    let now = 0;
    const minted: number[] = [];
    const get = renewingToken({
      now: () => now,
      renewBeforeMs: 10 * MIN,
      mint: async (): Promise<MintedToken> => {
        minted.push(now);
        return { token: `t${minted.length}`, expiresAt: new Date(now + lifetimeMs).toISOString() };
      },
    });
    return { get, minted, at: (t: number) => (now = t) };
  }

  it('reuses a token while it has more than renewBeforeMs left, and renews it before it expires', async () => {
    const s = source(60 * MIN);
    expect(await s.get()).toBe('t1');
    s.at(49 * MIN);
    expect(await s.get()).toBe('t1');
    s.at(50 * MIN); // 10 minutes left: a push started now could outlive it
    expect(await s.get()).toBe('t2');
    s.at(99 * MIN);
    expect(await s.get()).toBe('t2');
    s.at(100 * MIN);
    expect(await s.get()).toBe('t3');
    expect(s.minted).toEqual([0, 50 * MIN, 100 * MIN]);
  });

  it('callers asking together share one request; a failed one is asked again next time', async () => {
    let calls = 0;
    const get = renewingToken({
      now: () => 0,
      mint: async () => {
        calls += 1;
        if (calls === 1) throw new Error('502');
        return { token: 'ok', expiresAt: new Date(3_600_000).toISOString() };
      },
    });
    await expect(Promise.all([get(), get(), get()])).rejects.toThrow('502');
    expect(calls).toBe(1);
    expect(await Promise.all([get(), get()])).toEqual(['ok', 'ok']);
    expect(calls).toBe(2);
  });

  it('a token without a stated expiry is never reused', async () => {
    let calls = 0;
    const get = renewingToken({ now: () => 0, mint: async () => ({ token: `t${(calls += 1)}`, expiresAt: '' }) });
    expect([await get(), await get()]).toEqual(['t1', 't2']);
  });
});

describe('installation tokens against the fake GitHub', () => {
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.restore());

  it('asks for one repository and contents: write for git; the REST client carries its repository-scoped token', async () => {
    const state = newFakeGitHubState();
    nock.disableNetConnect();
    nockFakeGitHub(state);
    const installation = new ProbotOctokit({ auth: { ...testAppCredentials(), installationId: 5 }, throttle: { enabled: false } });
    const git = await mintInstallationToken(installation, 5, gitTokenScope(42));
    expect(git.token).toBe(state.token);
    expect(Date.parse(git.expiresAt)).toBeGreaterThan(Date.now());
    const rest = scopedOctokit(installation, renewingToken({ mint: () => mintInstallationToken(installation, 5, restTokenScope(42)), now: Date.now }));
    await rest.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { owner: state.owner, repo: state.repo, issue_number: 1 });
    await rest.rest.issues.createComment({ owner: state.owner, repo: state.repo, issue_number: 1, body: 'hi' });
    expect(state.tokenRequests.map((t) => t.body)).toEqual([
      { repository_ids: [42], permissions: { contents: 'write' } },
      { repository_ids: [42] },
    ]);
    const restToken = state.tokenRequests[1]!.token;
    expect(state.requestTokens.filter(([r]) => r.startsWith('GET /repos') || r.startsWith('POST /repos'))).toEqual([
      [`GET /repos/${state.owner}/${state.repo}/issues/1`, restToken],
      [`POST /repos/${state.owner}/${state.repo}/issues/1/comments`, restToken],
    ]);
    expect((await rest.auth()) as { token: string }).toMatchObject({ token: restToken });
    nock.enableNetConnect();
  });
});

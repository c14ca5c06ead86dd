import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { createRepoClients } from '../../src/app/repo-clients.js';
import { newFakeGitHubState, nockFakeGitHub } from '../support/fake-github.js';
import { collected } from '../support/collected.js';
import { testAppCredentials } from '../support/github-app.js';

describe('createRepoClients against the fake GitHub', () => {
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.restore());

  it('keeps one host per repository across deliveries: one token minted, scoped to it, used by every call; a renamed repository gets a host of its new name', async () => {
    const state = newFakeGitHubState({ roles: { octocat: 'admin' } });
    nock.disableNetConnect();
    nockFakeGitHub(state);
    // A new installation client per delivery, as Probot makes one per event; tokens come from the app's client.
    const credentials = testAppCredentials();
    const installation = () => new ProbotOctokit({ auth: { ...credentials, installationId: 5 }, throttle: { enabled: false } });
    const appClient = new ProbotOctokit({ auth: credentials, throttle: { enabled: false } });
    const clients = createRepoClients({ now: Date.now, appClient: async () => appClient });
    const repository = { id: 42, owner: state.owner, name: state.repo };
    const first = clients.repoHost(installation(), 5, repository);
    const second = clients.repoHost(installation(), 5, repository);
    expect(second).toBe(first);
    expect(clients.repoHost(installation(), 5, { ...repository, id: 43 })).not.toBe(first);
    for (const host of [first, second]) expect(await host.permission('octocat')).toBe('admin');
    expect(state.tokenRequests.map((t) => t.body)).toEqual([{ repository_ids: [42] }]);
    expect(state.requestTokens.filter(([r]) => r.startsWith('GET /repos')).map(([, token]) => token)).toEqual([state.tokenRequests[0]!.token, state.tokenRequests[0]!.token]);
    const renamed = clients.repoHost(installation(), 5, { ...repository, name: 'renamed' });
    expect([renamed.owner, renamed.repo]).toEqual([state.owner, 'renamed']);
    expect(clients.repoHost(installation(), 5, { ...repository, name: 'renamed' })).toBe(renamed);
    nock.enableNetConnect();
  });

  it('keeps at most maxEntries, the least recently used going first', () => {
    const installation = new ProbotOctokit({ auth: { token: 't' }, throttle: { enabled: false } });
    const clients = createRepoClients({ now: Date.now, appClient: async () => installation, maxEntries: 2 });
    const repo = (id: number) => ({ id, owner: 'o', name: `r${id}` });
    const a = clients.repoHost(installation, 1, repo(1));
    const b = clients.repoHost(installation, 1, repo(2));
    expect(clients.repoHost(installation, 1, repo(1))).toBe(a); // a is now the most recent
    clients.repoHost(installation, 1, repo(3)); // b goes
    expect(clients.repoHost(installation, 1, repo(1))).toBe(a);
    expect(clients.repoHost(installation, 1, repo(2))).not.toBe(b);
  });

  it('a kept client or host holds nothing of the event client it was made like (Probot’s holds its event, payload and all)', async () => {
    const clients = createRepoClients({ now: Date.now, appClient: async () => new ProbotOctokit({ auth: { token: 'app' } }) });
    let event: ProbotOctokit | null = new ProbotOctokit({ auth: { token: 't' }, throttle: { enabled: false } });
    clients.repoHost(event, 1, { id: 1, owner: 'o', name: 'r' });
    clients.config(event, 1);
    const ref = new WeakRef(event);
    event = null;
    expect(await collected(ref)).toBe(true);
  });
});

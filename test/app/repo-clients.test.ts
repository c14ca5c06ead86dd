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

  it('keeps one client per repository across deliveries: one token minted, scoped to it, used by every call', async () => {
    const state = newFakeGitHubState();
    nock.disableNetConnect();
    nockFakeGitHub(state);
    // A new installation client per delivery, as Probot makes one per event; tokens come from the app's client.
    const credentials = testAppCredentials();
    const installation = () => new ProbotOctokit({ auth: { ...credentials, installationId: 5 }, throttle: { enabled: false } });
    const appClient = new ProbotOctokit({ auth: credentials, throttle: { enabled: false } });
    const clients = createRepoClients({ now: Date.now, appClient: async () => appClient });
    const first = clients.repo(installation(), 5, 42);
    const second = clients.repo(installation(), 5, 42);
    expect(second).toBe(first);
    expect(clients.repo(installation(), 5, 43)).not.toBe(first);
    expect(clients.config(installation(), 5)).not.toBe(first);
    for (const client of [first, second]) await client.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { owner: state.owner, repo: state.repo, issue_number: 1 });
    expect(state.tokenRequests.map((t) => t.body)).toEqual([{ repository_ids: [42] }]);
    expect(state.requestTokens.filter(([r]) => r.startsWith('GET /repos')).map(([, token]) => token)).toEqual([state.tokenRequests[0]!.token, state.tokenRequests[0]!.token]);
    nock.enableNetConnect();
  });

  it('keeps at most maxEntries, the least recently used going first', () => {
    const installation = new ProbotOctokit({ auth: { token: 't' }, throttle: { enabled: false } });
    const clients = createRepoClients({ now: Date.now, appClient: async () => installation, maxEntries: 2 });
    const a = clients.repo(installation, 1, 1);
    const b = clients.repo(installation, 1, 2);
    expect(clients.repo(installation, 1, 1)).toBe(a); // a is now the most recent
    clients.repo(installation, 1, 3); // b goes
    expect(clients.repo(installation, 1, 1)).toBe(a);
    expect(clients.repo(installation, 1, 2)).not.toBe(b);
  });

  it('a kept client holds nothing of the event client it was made like (Probot’s holds its event, payload and all)', async () => {
    const clients = createRepoClients({ now: Date.now, appClient: async () => new ProbotOctokit({ auth: { token: 'app' } }) });
    let event: ProbotOctokit | null = new ProbotOctokit({ auth: { token: 't' }, throttle: { enabled: false } });
    clients.repo(event, 1, 1);
    clients.config(event, 1);
    const ref = new WeakRef(event);
    event = null;
    expect(await collected(ref)).toBe(true);
  });
});

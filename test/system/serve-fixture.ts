import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { newFakeGitHubState, serveFakeGitHub, type FakeGitHubState } from '../support/fake-github.js';
import { testAppCredentials } from '../support/github-app.js';
import { startGitHttpServer, type GitHttpRequest, type GitHttpServerOptions } from '../support/git-http-server.js';
import { examplePayload, sendWebhook, withInstallation, type WebhookAnswer } from '../support/webhook-client.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

import { INSTALLATION, SECRET, seedRemote } from './remote-fixture.js';

export { INSTALLATION, SECRET };

/**
 * What a `greenfix serve` process talks to, all real HTTP on loopback in this (the test's)
 * process: the fake GitHub REST API and a git remote. Plus the environment that points a serve
 * process at them, with its workdir and queue in a temp dir.
 */
export interface ServeFixture {
  dir: string;
  state: FakeGitHubState;
  /** The bare repository behind the git remote. */
  remote: string;
  /** The environment of a serve process (add GREENFIX_CRASH_AT to crash it). */
  env: Record<string, string>;
  spawn(extra?: Record<string, string>): ServeProcess;
  /**
   * A signed `issues.labeled` delivery for issue `number` to a running process (label `agent-fix`
   * unless given); what it was answered goes into the fake GitHub's delivery log.
   */
  label(url: string, number: number, deliveryId: string, label?: string): Promise<WebhookAnswer>;
  /** Every request the git remote saw, with its status (pushes are POST …/git-receive-pack). */
  gitRequests: GitHttpRequest[];
  /** The tree of a branch in the remote, or null. */
  remoteTree(branch: string): string | null;
  close(): Promise<void>;
}

export interface ServeFixtureOptions {
  files: Record<string, string>;
  /** The scripted model's turns (see writeScript's format). */
  script: unknown;
  config: string;
  /** Runs before the git remote serves a request (see startGitHttpServer's beforeRequest). */
  beforeGitRequest?: GitHttpServerOptions['beforeRequest'];
}

export async function startServeFixture(options: ServeFixtureOptions): Promise<ServeFixture> {
  const dir = tempDir('greenfix-serve-');
  const state = newFakeGitHubState({ roles: { octocat: 'admin' }, config: options.config });
  const { remoteRoot, remote } = seedRemote(dir, state.owner, state.repo, options.files);
  const gitServer = await startGitHttpServer({ root: remoteRoot, token: state.token, ...(options.beforeGitRequest ? { beforeRequest: options.beforeGitRequest } : {}) });
  const api = await serveFakeGitHub(state);
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify(options.script));
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = {
    HOME: home,
    APP_ID: '1',
    PRIVATE_KEY: testAppCredentials().privateKey,
    WEBHOOK_SECRET: SECRET,
    HOST: '127.0.0.1',
    PORT: '0',
    GHE_HOST: api.host,
    GHE_PROTOCOL: 'http',
    GREENFIX_WORKDIR: join(dir, 'work'),
    GREENFIX_DB: join(dir, 'db', 'greenfix.db'),
    GREENFIX_MODEL: `scripted:${script}`,
    LOG_FORMAT: 'json',
  };
  const repository = {
    id: 1296269,
    name: state.repo,
    full_name: `${state.owner}/${state.repo}`,
    owner: { login: state.owner, id: 1, type: 'Organization' },
    clone_url: gitServer.url(`${state.owner}/${state.repo}.git`),
    default_branch: 'main',
  };
  return {
    dir,
    state,
    remote,
    env,
    gitRequests: gitServer.requests,
    spawn: (extra = {}) => spawnServe({ cwd: home, env: { ...env, ...extra } }),
    label: async (url, number, deliveryId, label = 'agent-fix') => {
      const payload = examplePayload('issues', 'labeled');
      Object.assign(payload, {
        repository,
        issue: { ...payload.issue, number, title: 'add() gives the wrong answer', body: 'add 2 3 should be 5', pull_request: undefined },
        label: { ...payload.label, name: label },
        sender: { login: 'octocat', type: 'User', id: 1 },
      });
      const answer = await sendWebhook(`${url}/api/github/webhooks`, { event: 'issues', deliveryId, payload: withInstallation(payload, INSTALLATION), secret: SECRET });
      state.deliveries.push({ id: state.nextId++, guid: deliveryId, delivered_at: new Date().toISOString(), status_code: answer.status, event: 'issues', action: 'labeled' });
      return answer;
    },
    remoteTree: (branch) => {
      try {
        return git(remote, 'rev-parse', `refs/heads/${branch}^{tree}`);
      } catch {
        return null;
      }
    },
    async close() {
      await api.close();
      await gitServer.close();
      cleanup(dir);
    },
  };
}

import type { ProbotOctokit } from 'probot';
import { CONFIG_TOKEN_SCOPE, mintInstallationToken, renewingToken, restTokenScope, type TokenScope } from '../github/installation-token.js';
import { scopedOctokit } from '../github/scoped-octokit.js';

/** The webhook handler's REST clients, each with an installation token as narrow as its use. */
export interface RepoClients {
  /** Scoped to the delivery's repository, with the app's permissions: the handler's REST calls. `like`: a client of the class to make (the event's). */
  repo(like: ProbotOctokit, installationId: number, repositoryId: number): ProbotOctokit;
  /** contents: read only (on the installation's repositories: the org's `.github` too): reading greenfix.yml. */
  config(like: ProbotOctokit, installationId: number): ProbotOctokit;
}

export interface RepoClientsOptions {
  now: () => number;
  /** The app's own client (JWT), which mints the installation tokens. */
  appClient: () => Promise<ProbotOctokit>;
  maxEntries?: number;
}

/**
 * The handler's clients, one per (installation, repository) and one config client per
 * installation, each with its own token, minted through the app's client the first time and
 * renewed before it expires. Kept, not made per delivery (an Octokit and its plugins cost a
 * tenth of a millisecond each time); at most `maxEntries` (least recently used goes first), in
 * memory only. A kept client holds nothing of the delivery that made it: Probot's event client
 * holds its event, payload and all. Created per app instance and passed in: no module state.
 */
export function createRepoClients(options: RepoClientsOptions): RepoClients {
  const max = options.maxEntries ?? 500;
  const clients = new Map<string, ProbotOctokit>();
  const minter = (installationId: number, scope: TokenScope) => async () => mintInstallationToken(await options.appClient(), installationId, scope);
  const cached = (key: string, like: ProbotOctokit, installationId: number, scope: TokenScope): ProbotOctokit => {
    const client = clients.get(key) ?? scopedOctokit(like, renewingToken({ mint: minter(installationId, scope), now: options.now }));
    clients.delete(key);
    clients.set(key, client);
    while (clients.size > max) clients.delete(clients.keys().next().value as string);
    return client;
  };
  return {
    repo: (like, installationId, repositoryId) => cached(`${installationId}:${repositoryId}`, like, installationId, restTokenScope(repositoryId)),
    config: (like, installationId) => cached(`${installationId}:config`, like, installationId, CONFIG_TOKEN_SCOPE),
  };
}

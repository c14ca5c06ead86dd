import type { ProbotOctokit } from 'probot';
import { CONFIG_TOKEN_SCOPE, mintInstallationToken, renewingToken, restTokenScope, type TokenScope } from '../github/installation-token.js';
import { scopedOctokit } from '../github/scoped-octokit.js';

/** The webhook handler's REST clients, each with an installation token as narrow as its use. */
export interface RepoClients {
  /** Scoped to the delivery's repository, with the app's permissions: the handler's REST calls. */
  repo(installation: ProbotOctokit, installationId: number, repositoryId: number): ProbotOctokit;
  /** contents: read only (on the installation's repositories: the org's `.github` too): reading greenfix.yml. */
  config(installation: ProbotOctokit, installationId: number): ProbotOctokit;
}

/**
 * The handler's clients, one per (installation, repository) and one config client per
 * installation, each with its own token, minted through the installation's client the first time
 * and renewed before it expires. Kept, not made per delivery (an Octokit and its plugins cost a
 * tenth of a millisecond each time); at most `maxEntries` (least recently used goes first), in
 * memory only. Created per app instance and passed in: no module state.
 */
export function createRepoClients(options: { now: () => number; maxEntries?: number }): RepoClients {
  const max = options.maxEntries ?? 500;
  const clients = new Map<string, ProbotOctokit>();
  const cached = (key: string, installation: ProbotOctokit, installationId: number, scope: TokenScope): ProbotOctokit => {
    const client = clients.get(key) ?? scopedOctokit(installation, renewingToken({ mint: () => mintInstallationToken(installation, installationId, scope), now: options.now }));
    clients.delete(key);
    clients.set(key, client);
    while (clients.size > max) clients.delete(clients.keys().next().value as string);
    return client;
  };
  return {
    repo: (installation, installationId, repositoryId) => cached(`${installationId}:${repositoryId}`, installation, installationId, restTokenScope(repositoryId)),
    config: (installation, installationId) => cached(`${installationId}:config`, installation, installationId, CONFIG_TOKEN_SCOPE),
  };
}

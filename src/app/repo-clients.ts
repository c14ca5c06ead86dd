import type { ProbotOctokit } from 'probot';
import { CONFIG_TOKEN_SCOPE, mintInstallationToken, renewingToken, restTokenScope, type TokenScope } from '../github/installation-token.js';
import { createGitHost } from '../github/octokit-host.js';
import { scopedOctokit } from '../github/scoped-octokit.js';
import type { GitHost } from '../github/types.js';

/** The webhook handler's REST clients, each with an installation token as narrow as its use. */
export interface RepoClients {
  /**
   * The delivery's repository as a GitHost, over a client scoped to it with the app's permissions:
   * the handler's REST calls. `like`: a client of the class to make (the event's). Kept with its
   * client; made again when the repository's name changed.
   */
  repoHost(like: ProbotOctokit, installationId: number, repository: { id: number; owner: string; name: string }): GitHost;
  /** contents: read only (on the installation's repositories: the org's `.github` too): reading greenfix.yml. */
  config(like: ProbotOctokit, installationId: number): ProbotOctokit;
}

export interface RepoClientsOptions {
  now: () => number;
  /** The app's own client (JWT), which mints the installation tokens. */
  appClient: () => Promise<ProbotOctokit>;
  maxEntries?: number;
}

interface Entry {
  client: ProbotOctokit;
  host: GitHost | null;
}

/**
 * The handler's clients, one per (installation, repository) and one config client per
 * installation, each with its own token, minted through the app's client the first time and
 * renewed before it expires; a repository's GitHost is kept with its client. Kept, not made per
 * delivery (an Octokit and its plugins cost a tenth of a millisecond each time, a GitHost a
 * kilobyte that a task waiting after the answer holds); at most `maxEntries` (least recently used
 * goes first), in memory only. A kept client holds nothing of the delivery that made it: Probot's
 * event client holds its event, payload and all. Created per app instance and passed in: no module state.
 */
export function createRepoClients(options: RepoClientsOptions): RepoClients {
  const max = options.maxEntries ?? 500;
  const entries = new Map<string, Entry>();
  const minter = (installationId: number, scope: TokenScope) => async () => mintInstallationToken(await options.appClient(), installationId, scope);
  const entry = (key: string, like: ProbotOctokit, installationId: number, scope: TokenScope): Entry => {
    const found = entries.get(key) ?? { client: scopedOctokit(like, renewingToken({ mint: minter(installationId, scope), now: options.now })), host: null };
    entries.delete(key);
    entries.set(key, found);
    while (entries.size > max) entries.delete(entries.keys().next().value as string);
    return found;
  };
  return {
    repoHost(like, installationId, repository) {
      const found = entry(`${installationId}:${repository.id}`, like, installationId, restTokenScope(repository.id));
      if (found.host?.owner !== repository.owner || found.host.repo !== repository.name) {
        found.host = createGitHost(found.client, { owner: repository.owner, repo: repository.name });
      }
      return found.host;
    },
    config: (like, installationId) => entry(`${installationId}:config`, like, installationId, CONFIG_TOKEN_SCOPE).client,
  };
}

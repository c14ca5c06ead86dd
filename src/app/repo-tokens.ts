import type { ProbotOctokit } from 'probot';
import { CONFIG_TOKEN_SCOPE, mintInstallationToken, renewingToken, restTokenScope, type TokenScope } from '../github/installation-token.js';

type Token = () => Promise<string>;

/** The webhook handler's installation tokens, each as narrow as its use. */
export interface RepoTokens {
  /** Scoped to the delivery's repository, with the app's permissions: the handler's REST calls. */
  repo(installation: ProbotOctokit, installationId: number, repositoryId: number): Token;
  /** contents: read only (on the installation's repositories: the org's `.github` too): reading greenfix.yml. */
  config(installation: ProbotOctokit, installationId: number): Token;
}

/**
 * The handler's tokens, one per (installation, repository) and one config token per
 * installation, each renewed before it expires; at most `maxEntries` kept (least recently used
 * goes first), in memory only. Created per app instance and passed in: no module state.
 */
export function createRepoTokens(options: { now: () => number; maxEntries?: number }): RepoTokens {
  const max = options.maxEntries ?? 500;
  const tokens = new Map<string, Token>();
  const cached = (key: string, installation: ProbotOctokit, installationId: number, scope: TokenScope): Token => {
    const token = tokens.get(key) ?? renewingToken({ mint: () => mintInstallationToken(installation, installationId, scope), now: options.now });
    tokens.delete(key);
    tokens.set(key, token);
    while (tokens.size > max) tokens.delete(tokens.keys().next().value as string);
    return token;
  };
  return {
    repo: (installation, installationId, repositoryId) => cached(`${installationId}:${repositoryId}`, installation, installationId, restTokenScope(repositoryId)),
    config: (installation, installationId) => cached(`${installationId}:config`, installation, installationId, CONFIG_TOKEN_SCOPE),
  };
}

import type { ProbotOctokit } from 'probot';
import { mintInstallationToken, renewingToken, restTokenScope } from '../github/installation-token.js';

/** The renewing, repository-scoped token of (installation, repository), made from an installation client. */
export type RepoTokens = (installation: ProbotOctokit, installationId: number, repositoryId: number) => () => Promise<string>;

/**
 * The webhook handler's REST tokens, one per (installation, repository), each scoped to its
 * repository and renewed before it expires; at most `maxRepos` kept (least recently used goes
 * first), in memory only. Created per app instance and passed in: no module state.
 */
export function createRepoTokens(options: { now: () => number; maxRepos?: number }): RepoTokens {
  const max = options.maxRepos ?? 500;
  const tokens = new Map<string, () => Promise<string>>();
  return (installation, installationId, repositoryId) => {
    const key = `${installationId}:${repositoryId}`;
    const token = tokens.get(key) ?? renewingToken({ mint: () => mintInstallationToken(installation, installationId, restTokenScope(repositoryId)), now: options.now });
    tokens.delete(key);
    tokens.set(key, token);
    while (tokens.size > max) tokens.delete(tokens.keys().next().value as string);
    return token;
  };
}

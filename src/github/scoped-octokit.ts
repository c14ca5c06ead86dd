import type { ProbotOctokit } from 'probot';

type OctokitRequest = ((options: object) => Promise<unknown>) & { endpoint: { merge(route: unknown, parameters?: unknown): { headers: Record<string, string> } } };

/**
 * A client like `installation` (same class: Probot's defaults, base URL, throttling, retries,
 * logging) whose every request carries a token from `token` (a repository-scoped installation
 * token, renewed by its source) instead of the installation's all-repositories token.
 * `octokit.auth()` answers that token too.
 */
export function scopedOctokit(installation: ProbotOctokit, token: () => Promise<string>): ProbotOctokit {
  const Client = installation.constructor as new (options: object) => ProbotOctokit;
  return new Client({ authStrategy: () => tokenAuth(token) });
}

function tokenAuth(token: () => Promise<string>) {
  const auth = async () => ({ type: 'token', tokenType: 'installation', token: await token() });
  return Object.assign(auth, {
    hook: async (request: OctokitRequest, route: unknown, parameters?: unknown) => {
      const endpoint = request.endpoint.merge(route, parameters);
      endpoint.headers['authorization'] = `token ${await token()}`;
      return request(endpoint);
    },
  });
}

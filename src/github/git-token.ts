import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';

/**
 * The installation token for git over HTTPS. octokit-auth-probot caches and renews it; it goes to
 * the git process only (never logged, never in an error message: the error names the call only).
 */
export async function gitToken(deps: HostDeps): Promise<string> {
  const auth = (await call('installation token', () => deps.octokit.auth({ type: 'installation' }))) as { token?: unknown };
  if (typeof auth.token !== 'string' || auth.token === '') throw new Error('installation auth returned no token');
  return auth.token;
}

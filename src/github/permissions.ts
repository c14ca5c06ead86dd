import { call, GitHubError } from './errors.js';
import type { HostDeps } from './host-deps.js';
import type { Permission } from './types.js';

const ROLES: readonly Permission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];

function asPermission(value: unknown): Permission | null {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value) ? (value as Permission) : null;
}

/**
 * A user's role on the repository. `role_name` knows maintain and triage (and custom roles, which
 * fall back to the base `permission`); a user who is not a collaborator answers 404: 'none'.
 */
export async function permission(deps: HostDeps, username: string): Promise<Permission> {
  try {
    const { data } = await call('get collaborator permission', () =>
      deps.octokit.rest.repos.getCollaboratorPermissionLevel({ owner: deps.owner, repo: deps.repo, username }),
    );
    return asPermission(data.role_name) ?? asPermission(data.permission) ?? 'none';
  } catch (err) {
    if (err instanceof GitHubError && err.kind === 'not_found') return 'none';
    throw err;
  }
}

import { setupSecretNames, type RepoConfig } from '../config/repo-config.js';
import { grantSetupSecrets } from '../config/setup-secrets.js';
import type { JobRequest } from '../triggers/types.js';
import type { JobEnv } from './env.js';

/** The repository asked for setup secrets the operator did not grant it: no setup, one clear comment. */
export class SetupSecretsDeniedError extends Error {
  override readonly name = 'SetupSecretsDeniedError';
  constructor(
    readonly denied: readonly string[],
    readonly repo: string,
  ) {
    super(
      `\`.github/greenfix.yml\` asks for the setup secret${denied.length > 1 ? 's' : ''} ${denied.join(', ')}, which the operator of this greenfix has not granted to ${repo}, ` +
        'so no setup was run. Ask them to add it to their setup secrets file (GREENFIX_SETUP_SECRETS_FILE) for this repository, or remove it from `setup.secrets`',
    );
  }
}

/** The setup secrets this job's setup gets (name → value), or SetupSecretsDeniedError naming those not granted. */
export function jobSetupSecrets(env: Pick<JobEnv, 'setupSecrets'>, config: Pick<RepoConfig, 'setup'>, request: Pick<JobRequest, 'repo' | 'installationId'>): Record<string, string> {
  const requested = setupSecretNames(config);
  if (requested.length === 0) return {};
  const repo = `${request.repo.owner}/${request.repo.name}`;
  const { granted, denied } = grantSetupSecrets(env.setupSecrets ?? [], requested, { repo, installation: request.installationId });
  if (denied.length > 0) throw new SetupSecretsDeniedError(denied, repo);
  return granted;
}

import { SandboxRequestError } from './errors.js';
import type { SandboxRequest } from './types.js';

/** The PATH inside the sandbox unless the caller overrides it. */
export const DEFAULT_SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Names that look like credentials never enter the sandbox, whoever asks. */
const DENIED_NAME = /TOKEN|SECRET|KEY|PASSWORD|PASSWD|PRIVATE|CREDENTIAL/i;
/** Values that look like well-known tokens are refused even under an innocent name. */
const DENIED_VALUE = /^(gh[pousr]_|github_pat_|sk-|xox[abp]-|AKIA[0-9A-Z]{12})/;
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface BaseEnvOptions {
  home: string;
  path?: string;
}

/**
 * The complete environment of a sandboxed command: a fixed allow-list plus the request's extra
 * variables after checking they are not secrets. Nothing is inherited from greenfix's own process.
 */
export function sandboxEnvironment(extra: Record<string, string> | undefined, options: BaseEnvOptions): Record<string, string> {
  const env: Record<string, string> = {
    PATH: options.path ?? DEFAULT_SANDBOX_PATH,
    HOME: options.home,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'dumb',
    CI: 'true',
    TMPDIR: '/tmp',
    // Python trusts a cached .pyc while the source's mtime (whole seconds) and size match, so an
    // edit of the same size within a second of a run would be tested as the old code. No command
    // writes bytecode; each run compiles what is in the tree.
    PYTHONDONTWRITEBYTECODE: '1',
    // The worktree and its git dir belong to different uids when greenfix runs as root; git would
    // refuse them as "dubious ownership". Command-line scope is one git honours for this setting.
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'safe.directory',
    GIT_CONFIG_VALUE_0: '*',
  };
  for (const [name, value] of Object.entries(extra ?? {})) {
    checkVariable(name, value);
    env[name] = value;
  }
  return env;
}

/** Throws SandboxRequestError('env-refused') for a malformed or secret-looking variable. */
export function checkVariable(name: string, value: string): void {
  if (!VALID_NAME.test(name)) {
    throw new SandboxRequestError('env-refused', `environment variable name ${JSON.stringify(name)} is not valid`);
  }
  if (DENIED_NAME.test(name)) {
    throw new SandboxRequestError('env-refused', `environment variable ${name} looks like a secret; secrets never enter the sandbox`);
  }
  if (DENIED_VALUE.test(value) || value.includes('\0')) {
    throw new SandboxRequestError('env-refused', `the value of ${name} looks like a token; secrets never enter the sandbox`);
  }
}

/**
 * A request's setup secrets, checked: only a networked request (setup) whose egress is limited to
 * the repository's allow-list may carry any, so a secret reaches only the hosts named there. Null: none.
 */
export function checkSecrets(request: Pick<SandboxRequest, 'secrets' | 'network' | 'egressAllow'>): Readonly<Record<string, string>> | null {
  const entries = Object.entries(request.secrets ?? {});
  if (entries.length === 0) return null;
  if (request.network !== true || (request.egressAllow ?? []).length === 0) {
    throw new SandboxRequestError('env-refused', `setup secrets (${entries.map(([n]) => n).join(', ')}) go only to a networked setup limited to the repository's network.allow`);
  }
  for (const [name, value] of entries) {
    if (!VALID_NAME.test(name)) throw new SandboxRequestError('env-refused', `secret name ${JSON.stringify(name)} is not valid`);
    if (value.includes('\0')) throw new SandboxRequestError('env-refused', `the value of secret ${name} holds a NUL`);
  }
  return request.secrets ?? null;
}

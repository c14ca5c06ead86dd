import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvConfigError } from '../../src/config/env-config-error.js';
import { loadEnvConfig } from '../../src/config/env-config.js';
import { parseRepoConfig } from '../../src/config/parse-repo-config.js';
import { setupCommand, setupSecretNames } from '../../src/config/repo-config.js';
import { grantSetupSecrets, readSetupSecrets, SetupSecretsConfigError } from '../../src/config/setup-secrets.js';
import { classifyJobError } from '../../src/job/classify-job-error.js';
import { jobSetupSecrets, SetupSecretsDeniedError } from '../../src/job/setup-secrets.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

function secretsFile(text: string): string {
  const path = join(temp.make('gf-secrets-file-'), 'secrets.yml');
  writeFileSync(path, text);
  return path;
}

describe('GREENFIX_SETUP_SECRETS_FILE', () => {
  it('reads values from the file itself, a file, or a variable, with their repositories and installations', () => {
    const valueFile = join(temp.make('gf-secret-value-'), 'token');
    writeFileSync(valueFile, 'from-a-file-123\n');
    const path = secretsFile(
      `secrets:\n  NPM_TOKEN:\n    env: COMPANY_NPM\n    repos: [acme/web]\n  PIP_TOKEN:\n    file: ${valueFile}\n    installations: [42]\n  PLAIN:\n    value: inline-value-9\n`,
    );
    const grants = readSetupSecrets({ GREENFIX_SETUP_SECRETS_FILE: path, COMPANY_NPM: 'from-the-env-456' });
    expect(grants).toEqual([
      { name: 'NPM_TOKEN', value: 'from-the-env-456', repos: ['acme/web'], installations: null },
      { name: 'PIP_TOKEN', value: 'from-a-file-123', repos: null, installations: [42] },
      { name: 'PLAIN', value: 'inline-value-9', repos: null, installations: null },
    ]);
    expect(grantSetupSecrets(grants, ['NPM_TOKEN', 'PIP_TOKEN', 'PLAIN', 'OTHER'], { repo: 'Acme/Web', installation: 7 })).toEqual({
      granted: { NPM_TOKEN: 'from-the-env-456', PLAIN: 'inline-value-9' },
      denied: ['PIP_TOKEN', 'OTHER'],
    });
  });

  it.each([
    ['an unset variable', 'secrets:\n  NPM_TOKEN:\n    env: NOT_SET\n', 'NPM_TOKEN: the variable NOT_SET is unset or empty'],
    ['two sources', 'secrets:\n  NPM_TOKEN:\n    env: A\n    value: abcdefghij\n', 'give exactly one of value, file or env'],
    ['a lower-case name', 'secrets:\n  npm_token:\n    value: abcdefghij\n', 'a secret name is upper-case'],
    ['a short value', 'secrets:\n  NPM_TOKEN:\n    value: abc\n', 'at least 8 characters'],
  ])('refuses %s at startup, naming the secret, never its value', (_what, text, message) => {
    const read = () => readSetupSecrets({ GREENFIX_SETUP_SECRETS_FILE: secretsFile(text) });
    expect(read).toThrow(SetupSecretsConfigError);
    expect(read).toThrow(message);
  });
});

describe('loadEnvConfig with GREENFIX_SETUP_SECRETS_FILE', () => {
  it('reads the grants once, and lists a bad file among the startup problems without any value', () => {
    const good = secretsFile('secrets:\n  NPM_TOKEN:\n    env: ACME\n');
    expect(loadEnvConfig({ GREENFIX_SETUP_SECRETS_FILE: good, ACME: 'value-from-env-1' }, { cwd: '/' }).setupSecrets).toEqual([
      { name: 'NPM_TOKEN', value: 'value-from-env-1', repos: null, installations: null },
    ]);
    const bad = secretsFile('secrets:\n  NPM_TOKEN:\n    value: short\n');
    let problems: string[] = [];
    try {
      loadEnvConfig({ GREENFIX_SETUP_SECRETS_FILE: bad }, { cwd: '/' });
    } catch (error) {
      if (error instanceof EnvConfigError) problems = error.problems;
    }
    expect(problems).toEqual([`GREENFIX_SETUP_SECRETS_FILE ${bad}: NPM_TOKEN: the value must be at least 8 characters, without NUL`]);
  });
});

describe('setup in .github/greenfix.yml', () => {
  it('is a command, or { command, secrets }; secrets need network.allow', () => {
    const plain = parseRepoConfig({ setup: 'npm ci' });
    expect(plain.ok && [setupCommand(plain.config), setupSecretNames(plain.config)]).toEqual(['npm ci', []]);
    const withSecrets = parseRepoConfig({ setup: { command: 'npm ci', secrets: ['NPM_TOKEN'] }, network: { allow: ['npm.acme.dev'] } });
    expect(withSecrets.ok && [setupCommand(withSecrets.config), setupSecretNames(withSecrets.config)]).toEqual(['npm ci', ['NPM_TOKEN']]);
    const detected = parseRepoConfig({ setup: { secrets: ['NPM_TOKEN'] }, network: { allow: ['npm.acme.dev'] } });
    expect(detected.ok && setupCommand(detected.config)).toBeUndefined();
    const open = parseRepoConfig({ setup: { secrets: ['NPM_TOKEN'] } });
    expect(open).toEqual({ ok: false, problems: [expect.stringContaining('setup secrets need `network.allow`')] });
  });
});

describe('a job asking for a secret the operator did not grant', () => {
  it('stops before setup with one sentence naming the secret and what to do', () => {
    const grants = [{ name: 'NPM_TOKEN', value: 'secret-value-1', repos: ['acme/web'], installations: null }];
    const request = { repo: { id: 1, owner: 'acme', name: 'api', cloneUrl: '', defaultBranch: 'main' }, installationId: 3 };
    const config = { setup: { command: 'npm ci', secrets: ['NPM_TOKEN'] } };
    let error: unknown;
    try {
      jobSetupSecrets({ setupSecrets: grants }, config, request);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SetupSecretsDeniedError);
    const verdict = classifyJobError(error);
    expect(verdict.retryable).toBe(false);
    expect(verdict.sentence).toContain('asks for the setup secret NPM_TOKEN, which the operator of this greenfix has not granted to acme/api, so no setup was run');
    expect(verdict.sentence).not.toContain('secret-value-1');
    expect(jobSetupSecrets({ setupSecrets: grants }, config, { ...request, repo: { ...request.repo, name: 'web' } })).toEqual({ NPM_TOKEN: 'secret-value-1' });
  });
});

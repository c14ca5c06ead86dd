import { accessSync, constants, statSync } from 'node:fs';
import { setCaps, type OperatorCaps } from './operator-caps.js';

/**
 * GREENFIX_SANDBOX_UIDS beyond its shape: a real range of ordinary uids that spares root, system
 * users and nobody (65534), and fits in a signed 32-bit uid. Unset or misshapen: nothing to add.
 */
export function uidRangeProblems(value: string | undefined): string[] {
  const match = /^(\d+)-(\d+)$/.exec(value?.trim() ?? '');
  if (!match) return [];
  const [first, last] = [Number(match[1]), Number(match[2])];
  const why =
    first > last ? 'FIRST must not be above LAST'
    : first < 1000 ? 'must not include system uids (below 1000, root among them)'
    : last > 2 ** 31 - 2 ? `LAST must be at most ${2 ** 31 - 2}`
    : first <= 65_534 && last >= 65_534 ? 'must not include nobody (65534)'
    : last - first + 1 > 65_536 ? 'at most 65536 uids'
    : null;
  return why ? [`GREENFIX_SANDBOX_UIDS: ${why}`] : [];
}

/** The presence of the credentials, as set (non-blank) in the environment. */
export interface CredentialVars {
  APP_ID?: unknown;
  PRIVATE_KEY?: string | undefined;
  PRIVATE_KEY_PATH?: string | undefined;
  WEBHOOK_SECRET?: string | undefined;
  GREENFIX_ROLE?: string | undefined;
}

/**
 * No APP_ID and no private key is "setup mode": Probot's manifest flow registers the app on first
 * start. Anything in between is a half-configured app, refused with what is missing.
 */
export function isSetupMode(vars: CredentialVars): boolean {
  return vars.APP_ID === undefined && vars.PRIVATE_KEY === undefined && vars.PRIVATE_KEY_PATH === undefined;
}

export function credentialProblems(vars: CredentialVars, resolvedKeyPath: string | undefined): string[] {
  if (isSetupMode(vars)) {
    return vars.GREENFIX_ROLE === 'worker'
      ? ['GREENFIX_ROLE=worker needs APP_ID and PRIVATE_KEY: register the app first by starting greenfix with GREENFIX_ROLE=all (setup mode)']
      : [];
  }
  const problems: string[] = [];
  const hasKey = vars.PRIVATE_KEY !== undefined || vars.PRIVATE_KEY_PATH !== undefined;
  if (vars.APP_ID === undefined) problems.push('APP_ID: must be set when a private key is (or unset both for setup mode)');
  if (!hasKey) problems.push('PRIVATE_KEY or PRIVATE_KEY_PATH: one must be set when APP_ID is (or unset both for setup mode)');
  if (vars.PRIVATE_KEY !== undefined && vars.PRIVATE_KEY_PATH !== undefined) {
    problems.push('PRIVATE_KEY and PRIVATE_KEY_PATH: set only one of them');
  }
  if (vars.PRIVATE_KEY !== undefined && !looksLikePem(vars.PRIVATE_KEY)) {
    problems.push('PRIVATE_KEY: must be a PEM private key ("-----BEGIN ... PRIVATE KEY-----"), or that PEM base64-encoded');
  }
  if (resolvedKeyPath !== undefined) {
    const problem = readableFileProblem(resolvedKeyPath);
    if (problem) problems.push(`PRIVATE_KEY_PATH: ${problem}`);
  }
  if (vars.WEBHOOK_SECRET === undefined) problems.push('WEBHOOK_SECRET: must be set (the secret GitHub signs webhooks with)');
  return problems;
}

/** What Probot accepts: a PEM (newlines possibly escaped as `\n`) or the PEM base64-encoded. */
function looksLikePem(key: string): boolean {
  const pem = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
  return pem.test(key) || pem.test(Buffer.from(key, 'base64').toString('utf8'));
}

/** The path is named (it is not a secret), the file's content never is. */
function readableFileProblem(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return `${path} does not exist`;
    if (code === 'EACCES') return `${path} is not readable by this user`;
    return `${path} cannot be read (${typeof code === 'string' ? code : 'unknown error'})`;
  }
}

/**
 * A default reservation above a cap would keep every job without `max_cost_usd` waiting forever:
 * refused at startup, naming both variables.
 */
export function capProblems(caps: OperatorCaps): string[] {
  return setCaps(caps)
    .filter((cap) => caps.jobReserveUsd > cap.usd)
    .map((cap) => `GREENFIX_JOB_RESERVE_USD: must be at most ${cap.variable} (a job reserving more than the cap could never start)`);
}

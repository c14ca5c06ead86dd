import { readSetupSecrets, SetupSecretsConfigError, type SetupSecretGrant } from './setup-secrets.js';
import { join, resolve } from 'node:path';
import { describeIssue } from './describe-issue.js';
import { EnvConfigError } from './env-config-error.js';
import { capProblems, credentialProblems, isSetupMode, uidRangeProblems, type CredentialVars } from './env-rules.js';
import { DEFAULT_CACHE_MB } from './cache-bytes.js';
import { EnvSchema, type ParsedEnv } from './env-schema.js';
import { imageSettingsOf, type ImageSettings } from './image-settings.js';
import { modelSettingsOf, type ModelSettings } from './model-settings.js';
import { DEFAULT_JOB_RESERVE_USD, type OperatorCaps } from './operator-caps.js';


/** The deployment's settings (DESIGN §3.5), validated once at startup. */
export interface EnvConfig {
  /** No APP_ID and no private key: Probot's manifest flow registers the app. */
  setupMode: boolean;
  appId?: number;
  privateKey?: string;
  /** Absolute. */
  privateKeyPath?: string;
  webhookSecret?: string;
  port: number;
  host?: string;
  logLevel: NonNullable<ParsedEnv['LOG_LEVEL']>;
  logFormat?: NonNullable<ParsedEnv['LOG_FORMAT']>;
  gheHost?: string;
  gheProtocol?: NonNullable<ParsedEnv['GHE_PROTOCOL']>;
  webhookProxyUrl?: string;
  /** The model endpoint (model-settings.ts): handed down to model/, which reads no variable itself. */
  model: ModelSettings;
  /** Absolute; mirrors, worktrees and job files. */
  workdir: string;
  /** Absolute; the embedded queue's SQLite file. */
  db: string;
  concurrency: number;
  role: NonNullable<ParsedEnv['GREENFIX_ROLE']>;
  redisUrl?: string;
  sandbox: NonNullable<ParsedEnv['GREENFIX_SANDBOX']>;
  /** How long running jobs may take to finish after SIGTERM before they are released to others. */
  shutdownGraceMs: number;
  /** How long a finished job's directory (journal, state) is kept before the sweep deletes it. */
  jobRetentionMs: number;
  /** How long the queue remembers a finished job (and so its delivery id and dedupe key). */
  queueRetentionMs: number;
  /** Largest webhook body the server reads; a larger one gets 413 before it is buffered. */
  webhookMaxBytes: number;
  /** Size cap of the dependency cache (`<workdir>/dep-cache`) in bytes; 0 = no cache. */
  cacheBytes: number;
  /** Where greenfix is reachable from outside (GREENFIX_PUBLIC_URL): the run pages' links; absent = no links. */
  publicUrl?: string;
  /** GREENFIX_RUN_LINK_SECRET; absent = a key derived from the webhook secret. */
  runLinkSecret?: string;
  /** Spend caps over time and the default reservation (operator-caps.ts). */
  caps: OperatorCaps;
  /** The operator's named setup secrets (GREENFIX_SETUP_SECRETS_FILE), their values read. */
  setupSecrets: SetupSecretGrant[];
  /** Environment images (image-settings.ts). */
  images: ImageSettings;
}

export interface EnvDeps {
  /** Relative paths resolve against it; the default workdir is `<cwd>/.greenfix`. */
  cwd: string;
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_WORKDIR_NAME = '.greenfix';
/** Below the 30 s Docker and Kubernetes wait between SIGTERM and SIGKILL. */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 25;
/** A week: long enough to read a failed job's journal after a weekend. */
export const DEFAULT_JOB_RETENTION_DAYS = 7;
/** A month: far beyond GitHub's redelivery window, so a redelivered webhook still finds its job. */
export const DEFAULT_QUEUE_RETENTION_DAYS = 30;
/** 5 MiB: greenfix's events are a few KB; GitHub caps payloads at 25 MB. */
export const DEFAULT_WEBHOOK_MAX_BYTES = 5 * 1024 * 1024;
const DAY_MS = 86_400_000;

/**
 * Validates the environment, listing every problem at once in an EnvConfigError. Problems name the
 * variable and the rule, never the value (several are secrets).
 */
export function loadEnvConfig(env: Record<string, string | undefined>, deps: EnvDeps = { cwd: process.cwd() }): EnvConfig {
  const parsed = EnvSchema.safeParse(env);
  const fieldProblems = parsed.success ? [] : parsed.error.issues.map((issue) => describeIssue(issue, env));
  // Rules across variables read the raw values, so they are checked even when a field failed.
  const vars = credentialVarsOf(env);
  const keyPath = vars.PRIVATE_KEY_PATH === undefined ? undefined : resolve(deps.cwd, vars.PRIVATE_KEY_PATH);
  const problems = [...fieldProblems, ...credentialProblems(vars, keyPath), ...uidRangeProblems(env.GREENFIX_SANDBOX_UIDS)];
  if (parsed.success) problems.push(...capProblems(capsOf(parsed.data)));
  let setupSecrets: SetupSecretGrant[] = [];
  try {
    setupSecrets = readSetupSecrets(env);
  } catch (error) {
    if (!(error instanceof SetupSecretsConfigError)) throw error;
    problems.push(error.message);
  }
  if (!parsed.success || problems.length > 0) throw new EnvConfigError(problems);
  return { ...toConfig(parsed.data, keyPath, deps.cwd), setupSecrets };
}

function credentialVarsOf(env: Record<string, string | undefined>): CredentialVars {
  const set = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    APP_ID: set('APP_ID'),
    PRIVATE_KEY: set('PRIVATE_KEY'),
    PRIVATE_KEY_PATH: set('PRIVATE_KEY_PATH'),
    WEBHOOK_SECRET: set('WEBHOOK_SECRET'),
    GREENFIX_ROLE: set('GREENFIX_ROLE'),
  };
}

/** The workdir and the SQLite file, as `serve` and the store-reading commands resolve them. */
export function storePaths(v: { GREENFIX_WORKDIR?: string | undefined; GREENFIX_DB?: string | undefined }, cwd: string): { workdir: string; db: string } {
  const workdir = resolve(cwd, v.GREENFIX_WORKDIR ?? DEFAULT_WORKDIR_NAME);
  return { workdir, db: resolve(cwd, v.GREENFIX_DB ?? join(workdir, 'greenfix.db')) };
}

function toConfig(v: ParsedEnv, privateKeyPath: string | undefined, cwd: string): Omit<EnvConfig, 'setupSecrets'> {
  const { workdir, db } = storePaths(v, cwd);
  return {
    setupMode: isSetupMode(v),
    appId: v.APP_ID,
    privateKey: v.PRIVATE_KEY,
    privateKeyPath,
    webhookSecret: v.WEBHOOK_SECRET,
    host: v.HOST,
    logFormat: v.LOG_FORMAT,
    gheHost: v.GHE_HOST,
    gheProtocol: v.GHE_PROTOCOL,
    webhookProxyUrl: v.WEBHOOK_PROXY_URL,
    model: modelSettingsOf(v),
    redisUrl: v.REDIS_URL,
    port: v.PORT ?? DEFAULT_PORT,
    logLevel: v.LOG_LEVEL ?? 'info',
    workdir,
    db,
    concurrency: v.GREENFIX_CONCURRENCY ?? DEFAULT_CONCURRENCY,
    role: v.GREENFIX_ROLE ?? 'all',
    sandbox: v.GREENFIX_SANDBOX ?? 'on',
    shutdownGraceMs: (v.GREENFIX_SHUTDOWN_GRACE_SECONDS ?? DEFAULT_SHUTDOWN_GRACE_SECONDS) * 1000,
    jobRetentionMs: (v.GREENFIX_JOB_RETENTION_DAYS ?? DEFAULT_JOB_RETENTION_DAYS) * DAY_MS,
    queueRetentionMs: (v.GREENFIX_QUEUE_RETENTION_DAYS ?? DEFAULT_QUEUE_RETENTION_DAYS) * DAY_MS,
    webhookMaxBytes: v.GREENFIX_WEBHOOK_MAX_BYTES ?? DEFAULT_WEBHOOK_MAX_BYTES,
    cacheBytes: (v.GREENFIX_CACHE_MB ?? DEFAULT_CACHE_MB) * 1024 * 1024,
    publicUrl: v.GREENFIX_PUBLIC_URL,
    runLinkSecret: v.GREENFIX_RUN_LINK_SECRET,
    caps: capsOf(v),
    images: imageSettingsOf(v, cwd),
  };
}

function capsOf(v: ParsedEnv): OperatorCaps {
  return {
    ...(v.GREENFIX_REPO_DAILY_USD !== undefined ? { repoDailyUsd: v.GREENFIX_REPO_DAILY_USD } : {}),
    ...(v.GREENFIX_REPO_MONTHLY_USD !== undefined ? { repoMonthlyUsd: v.GREENFIX_REPO_MONTHLY_USD } : {}),
    ...(v.GREENFIX_INSTALLATION_MONTHLY_USD !== undefined ? { installationMonthlyUsd: v.GREENFIX_INSTALLATION_MONTHLY_USD } : {}),
    jobReserveUsd: v.GREENFIX_JOB_RESERVE_USD ?? DEFAULT_JOB_RESERVE_USD,
  };
}

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvConfig } from '../../src/config/env-config.js';
import { EnvConfigError } from '../../src/config/env-config-error.js';

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n';
const SECRET = 'hunter2-webhook-secret';
const APP = { APP_ID: '12345', PRIVATE_KEY: PEM, WEBHOOK_SECRET: SECRET };

function problemsOf(env: Record<string, string | undefined>, cwd = '/srv/greenfix'): string[] {
  try {
    loadEnvConfig(env, { cwd });
  } catch (error) {
    if (error instanceof EnvConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadEnvConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenfix-env-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('an empty environment is setup mode, with the defaults', () => {
    expect(loadEnvConfig({}, { cwd: '/srv/greenfix' })).toEqual({
      setupMode: true,
      port: 3000,
      logLevel: 'info',
      workdir: '/srv/greenfix/.greenfix',
      db: '/srv/greenfix/.greenfix/greenfix.db',
      concurrency: 2,
      role: 'all',
      sandbox: 'on',
      shutdownGraceMs: 25_000,
      jobRetentionMs: 7 * 86_400_000,
      queueRetentionMs: 30 * 86_400_000,
      webhookMaxBytes: 5 * 1024 * 1024,
      cacheBytes: 5120 * 1024 * 1024,
      caps: { jobReserveUsd: 1 },
      setupSecrets: [],
      images: { insecureRegistries: [], cacheBytes: 20_480 * 1024 * 1024 },
      model: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
    });
  });

  it('environment images: the default image, the auth file (absolute), plain-HTTP hosts, the cache cap', () => {
    const images = { GREENFIX_DEFAULT_IMAGE: 'python:3.12-slim', GREENFIX_REGISTRY_AUTH_FILE: 'auth.json', GREENFIX_INSECURE_REGISTRIES: 'registry.internal:5000, mirror.lan', GREENFIX_IMAGE_CACHE_MB: '1024' };
    expect(loadEnvConfig({ ...APP, ...images }, { cwd: '/srv/greenfix' }).images).toEqual({
      defaultImage: 'python:3.12-slim',
      authFile: '/srv/greenfix/auth.json',
      insecureRegistries: ['registry.internal:5000', 'mirror.lan'],
      cacheBytes: 1024 * 1024 * 1024,
    });
    expect(problemsOf({ ...APP, GREENFIX_DEFAULT_IMAGE: 'python 3', GREENFIX_INSECURE_REGISTRIES: 'http://x', GREENFIX_IMAGE_CACHE_MB: '10' })).toEqual([
      expect.stringMatching(/^GREENFIX_DEFAULT_IMAGE.*an image reference such as python:3\.12-slim without whitespace/),
      expect.stringMatching(/^GREENFIX_INSECURE_REGISTRIES.*registry hosts separated by commas/),
      expect.stringMatching(/^GREENFIX_IMAGE_CACHE_MB.*256/),
    ]);
  });

  it('spend caps: amounts in USD, the reservation at most every cap set', () => {
    const caps = { GREENFIX_REPO_DAILY_USD: '5', GREENFIX_REPO_MONTHLY_USD: '50.5', GREENFIX_INSTALLATION_MONTHLY_USD: '200', GREENFIX_JOB_RESERVE_USD: '0.75' };
    expect(loadEnvConfig({ ...APP, ...caps }, { cwd: dir }).caps).toEqual({ repoDailyUsd: 5, repoMonthlyUsd: 50.5, installationMonthlyUsd: 200, jobReserveUsd: 0.75 });
    expect(problemsOf({ ...APP, GREENFIX_REPO_DAILY_USD: '0.5', GREENFIX_INSTALLATION_MONTHLY_USD: '0.8' })).toEqual([
      'GREENFIX_JOB_RESERVE_USD: must be at most GREENFIX_REPO_DAILY_USD (a job reserving more than the cap could never start)',
      'GREENFIX_JOB_RESERVE_USD: must be at most GREENFIX_INSTALLATION_MONTHLY_USD (a job reserving more than the cap could never start)',
    ]);
    expect(problemsOf({ ...APP, GREENFIX_REPO_DAILY_USD: '0.5', GREENFIX_JOB_RESERVE_USD: '0.5' })).toEqual([]);
  });

  it('a registered app: every variable read and typed', () => {
    const config = loadEnvConfig(
      {
        ...APP,
        PORT: '8080',
        HOST: '0.0.0.0',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        GHE_HOST: 'github.example.com',
        GHE_PROTOCOL: 'https',
        WEBHOOK_PROXY_URL: 'https://smee.io/abc',
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_API_KEY: 'sk-abc',
        GREENFIX_MODEL: 'scripted:/tmp/script.json',
        GREENFIX_WORKDIR: 'data',
        GREENFIX_DB: '/var/lib/greenfix/q.db',
        GREENFIX_CONCURRENCY: '64',
        GREENFIX_ROLE: 'worker',
        REDIS_URL: 'rediss://user:pw@redis.example.com:6380/0',
        GREENFIX_SANDBOX: 'off',
        GREENFIX_SHUTDOWN_GRACE_SECONDS: '1',
        GREENFIX_JOB_RETENTION_DAYS: '0',
        GREENFIX_QUEUE_RETENTION_DAYS: '90',
        GREENFIX_WEBHOOK_MAX_BYTES: '1048576',
        GREENFIX_CACHE_MB: '0',
      },
      { cwd: '/srv/greenfix' },
    );
    expect(config).toMatchObject({
      setupMode: false,
      appId: 12345,
      privateKey: PEM.trim(),
      webhookSecret: SECRET,
      port: 8080,
      host: '0.0.0.0',
      logLevel: 'debug',
      logFormat: 'json',
      gheHost: 'github.example.com',
      gheProtocol: 'https',
      webhookProxyUrl: 'https://smee.io/abc',
      model: { baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'sk-abc', model: 'scripted:/tmp/script.json' },
      workdir: '/srv/greenfix/data',
      db: '/var/lib/greenfix/q.db',
      concurrency: 64,
      role: 'worker',
      redisUrl: 'rediss://user:pw@redis.example.com:6380/0',
      sandbox: 'off',
      shutdownGraceMs: 1000,
      jobRetentionMs: 0,
      queueRetentionMs: 90 * 86_400_000,
      webhookMaxBytes: 1_048_576,
      cacheBytes: 0,
    });
  });

  it('blank values mean unset, as in a .env file', () => {
    expect(loadEnvConfig({ APP_ID: '', PRIVATE_KEY: '  ', PORT: '', GREENFIX_ROLE: '' }, { cwd: dir })).toMatchObject({
      setupMode: true,
      port: 3000,
      role: 'all',
    });
  });

  it('one credential without the other is a problem; WEBHOOK_SECRET is needed outside setup mode', () => {
    expect(problemsOf({ APP_ID: '1', WEBHOOK_SECRET: SECRET })).toEqual([
      'PRIVATE_KEY or PRIVATE_KEY_PATH: one must be set when APP_ID is (or unset both for setup mode)',
    ]);
    expect(problemsOf({ PRIVATE_KEY: PEM })).toEqual([
      'APP_ID: must be set when a private key is (or unset both for setup mode)',
      'WEBHOOK_SECRET: must be set (the secret GitHub signs webhooks with)',
    ]);
    expect(problemsOf({ ...APP, PRIVATE_KEY_PATH: '/k.pem' })).toContain('PRIVATE_KEY and PRIVATE_KEY_PATH: set only one of them');
  });

  it('a worker cannot run in setup mode', () => {
    expect(problemsOf({ GREENFIX_ROLE: 'worker' })).toEqual([expect.stringMatching(/^GREENFIX_ROLE=worker needs APP_ID and PRIVATE_KEY/)]);
  });

  it('PRIVATE_KEY must look like a PEM; base64 of one is accepted', () => {
    expect(problemsOf({ ...APP, PRIVATE_KEY: 'not-a-key' })).toEqual([expect.stringMatching(/^PRIVATE_KEY: must be a PEM private key/)]);
    expect(loadEnvConfig({ ...APP, PRIVATE_KEY: Buffer.from(PEM).toString('base64') }, { cwd: dir }).setupMode).toBe(false);
    expect(loadEnvConfig({ ...APP, PRIVATE_KEY: PEM.replace(/\n/g, '\\n') }, { cwd: dir }).setupMode).toBe(false);
  });

  it('PRIVATE_KEY_PATH must be an existing readable file, resolved against the working directory', () => {
    writeFileSync(join(dir, 'key.pem'), PEM);
    const env = { APP_ID: '1', WEBHOOK_SECRET: SECRET };
    expect(loadEnvConfig({ ...env, PRIVATE_KEY_PATH: 'key.pem' }, { cwd: dir }).privateKeyPath).toBe(join(dir, 'key.pem'));
    expect(problemsOf({ ...env, PRIVATE_KEY_PATH: 'missing.pem' }, dir)).toEqual([`PRIVATE_KEY_PATH: ${join(dir, 'missing.pem')} does not exist`]);
    mkdirSync(join(dir, 'keys'));
    expect(problemsOf({ ...env, PRIVATE_KEY_PATH: 'keys' }, dir)).toEqual([`PRIVATE_KEY_PATH: ${join(dir, 'keys')} is not a file`]);
    if (process.getuid?.() !== 0) {
      chmodSync(join(dir, 'key.pem'), 0o000);
      expect(problemsOf({ ...env, PRIVATE_KEY_PATH: 'key.pem' }, dir)).toEqual([expect.stringMatching(/is not readable by this user$/)]);
    }
  });

  it.each([
    ['APP_ID', 'abc', 'APP_ID: must be a whole number from 1 to'],
    ['PORT', '70000', 'PORT: must be a whole number from 0 to 65535'],
    ['PORT', '80a', 'PORT: must be a whole number from 0 to 65535'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL: must be one of `trace`, `debug`, `info`, `warn`, `error`, `fatal`'],
    ['LOG_FORMAT', 'xml', 'LOG_FORMAT: must be one of `json`, `pretty`'],
    ['GHE_HOST', 'https://github.example.com', 'GHE_HOST: must be a host name such as github.example.com, without https://'],
    ['GHE_PROTOCOL', 'ftp', 'GHE_PROTOCOL: must be one of `https`, `http`'],
    ['WEBHOOK_PROXY_URL', 'smee.io/abc', 'WEBHOOK_PROXY_URL: must be an http(s) URL'],
    ['OPENAI_BASE_URL', 'ftp://x', 'OPENAI_BASE_URL: must be an http(s) URL'],
    ['OPENAI_API_KEY', 'sk abc', 'OPENAI_API_KEY: must be a key without whitespace'],
    ['GREENFIX_MODEL', 'gpt 4', 'GREENFIX_MODEL: must be a model name without whitespace'],
    ['GREENFIX_CONCURRENCY', '0', 'GREENFIX_CONCURRENCY: must be a whole number from 1 to 64'],
    ['GREENFIX_CONCURRENCY', '65', 'GREENFIX_CONCURRENCY: must be a whole number from 1 to 64'],
    ['GREENFIX_ROLE', 'both', 'GREENFIX_ROLE: must be one of `all`, `receiver`, `worker`'],
    ['REDIS_URL', 'http://redis:6379', 'REDIS_URL: must be a redis:// or rediss:// URL'],
    ['GREENFIX_SANDBOX', 'no', 'GREENFIX_SANDBOX: must be one of `on`, `bwrap`, `off`'],
    ['GREENFIX_SHUTDOWN_GRACE_SECONDS', '2.5', 'GREENFIX_SHUTDOWN_GRACE_SECONDS: must be a whole number from 0 to 3600'],
    ['GREENFIX_JOB_RETENTION_DAYS', '-1', 'GREENFIX_JOB_RETENTION_DAYS: must be a whole number from 0 to 3650'],
    ['GREENFIX_JOB_RETENTION_DAYS', '7d', 'GREENFIX_JOB_RETENTION_DAYS: must be a whole number from 0 to 3650'],
    ['GREENFIX_SETUP_ALLOW', 'registry.npmjs.org,127.0.0.1', 'GREENFIX_SETUP_ALLOW: entry 2 must be a domain name such as registry.npmjs.org'],
    ['GREENFIX_SETUP_ALLOW', 'http://registry.npmjs.org', 'GREENFIX_SETUP_ALLOW: entry 1 must be a domain name'],
    ['GREENFIX_QUEUE_RETENTION_DAYS', '0', 'GREENFIX_QUEUE_RETENTION_DAYS: must be a whole number from 1 to 3650'],
    ['GREENFIX_SANDBOX_UIDS', '200000', 'GREENFIX_SANDBOX_UIDS: must be FIRST-LAST'],
    ['GREENFIX_SANDBOX_UIDS', '0-999', 'GREENFIX_SANDBOX_UIDS: must not include system uids'],
    ['GREENFIX_SANDBOX_UIDS', '60000-70000', 'GREENFIX_SANDBOX_UIDS: must not include nobody (65534)'],
    ['GREENFIX_SANDBOX_UIDS', '300-200', 'GREENFIX_SANDBOX_UIDS: FIRST must not be above LAST'],
    ['GREENFIX_SANDBOX_MEMORY_MB', '32', 'GREENFIX_SANDBOX_MEMORY_MB: must be a whole number from 64 to 1048576'],
    ['GREENFIX_SANDBOX_PIDS', '1k', 'GREENFIX_SANDBOX_PIDS: must be a whole number from 16 to 4194304'],
    ['GREENFIX_SANDBOX_DISK_MB', '0', 'GREENFIX_SANDBOX_DISK_MB: must be a whole number from 1 to 16777216'],
    ['GREENFIX_WEBHOOK_MAX_BYTES', '5MB', 'GREENFIX_WEBHOOK_MAX_BYTES: must be a whole number from 65536 to 26214400'],
    ['GREENFIX_WEBHOOK_MAX_BYTES', '30000000', 'GREENFIX_WEBHOOK_MAX_BYTES: must be a whole number from 65536 to 26214400'],
    ['GREENFIX_CACHE_MB', '5G', 'GREENFIX_CACHE_MB: must be a whole number from 0 to 1048576'],
    ['GREENFIX_REPO_DAILY_USD', '$5', 'GREENFIX_REPO_DAILY_USD: must be an amount in USD greater than 0 and at most 1000000'],
    ['GREENFIX_REPO_MONTHLY_USD', '0', 'GREENFIX_REPO_MONTHLY_USD: must be an amount in USD greater than 0'],
    ['GREENFIX_INSTALLATION_MONTHLY_USD', '1e3', 'GREENFIX_INSTALLATION_MONTHLY_USD: must be an amount in USD'],
    ['GREENFIX_JOB_RESERVE_USD', '5000', 'GREENFIX_JOB_RESERVE_USD: must be an amount in USD greater than 0 and at most 1000'],
  ])('%s=%j → one problem', (name, value, message) => {
    const problems = problemsOf({ ...APP, [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it('lists every problem at once, and never a value', () => {
    const env = {
      APP_ID: 'x',
      PRIVATE_KEY: 'sekrit-not-a-pem',
      PORT: 'eighty',
      GREENFIX_ROLE: 'boss',
      REDIS_URL: 'http://user:redis-password@h',
      OPENAI_API_KEY: 'sk live key',
    };
    let error: unknown;
    try {
      loadEnvConfig(env, { cwd: dir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvConfigError);
    const { problems, message, kind } = error as EnvConfigError;
    expect(kind).toBe('env_config');
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'APP_ID',
      'PORT',
      'OPENAI_API_KEY',
      'GREENFIX_ROLE',
      'REDIS_URL',
      'PRIVATE_KEY',
      'WEBHOOK_SECRET',
    ]);
    for (const text of [message, ...problems]) {
      for (const secret of ['sekrit', 'redis-password', 'sk live', 'eighty', 'boss']) expect(text).not.toContain(secret);
    }
  });
});

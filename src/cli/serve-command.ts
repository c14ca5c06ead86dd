import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readEnvFile } from '../config/env-file.js';
import { runSetupMode } from './setup-mode.js';
import { createLogger } from '../app/logger.js';
import { loadEnvConfig, type EnvConfig } from '../config/env-config.js';
import { EnvConfigError } from '../config/env-config-error.js';
import { ConfigError } from '../model/config-error.js';
import { createChatModel } from '../model/create-chat-model.js';
import { modelConfigOf, type ModelConfig } from '../model/model-config.js';
import { missingKeyProblem } from '../config/model-settings.js';
import { openQueue } from './open-queue.js';
import { appPathsInBoundDirs, boundDirs, type AppPath } from '../sandbox/bound-app-paths.js';
import { createSandbox } from '../sandbox/create-sandbox.js';
import { SandboxConfigError, SandboxUnavailableError } from '../sandbox/errors.js';
import { parseReadOnlyPaths } from '../sandbox/read-only-paths.js';
import { sandboxFileOwner } from '../sandbox/ownership.js';
import { checkSystemPackages } from '../sandbox/system-packages.js';
import { findImageTools, type ImageTools } from '../image/image-tools.js';
import { QueueOpenError } from '../queue/errors.js';
import { RedisQueueOpenError } from '../queue/redis-connect.js';
import { crashWrappers } from './crash-wrappers.js';
import { ExitCode, UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { startApp } from './start-app.js';
import { runLinkKey } from '../run-log/run-link.js';
import { waitForSignal } from './signals.js';
import { lockWorkdir } from './workdir-lock.js';
import { workdirProblem } from './workdir-check.js';

export const SERVE_USAGE = `Usage: greenfix serve     the webhook server and workers (GREENFIX_ROLE=all|receiver|worker)
       greenfix worker    workers only (same as GREENFIX_ROLE=worker)

Configuration is read from the environment and the env file (GREENFIX_ENV_FILE, default ./.env; the
environment wins); see .env.example. Without APP_ID and a private key, greenfix serves its setup
page, which registers the GitHub App from app.yml and writes the credentials to the env file.`;

/** `greenfix serve` / `greenfix worker`: validate everything up front, then run until a signal. */
export async function serveCommand(argv: string[], io: CliIo, role?: 'worker'): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(SERVE_USAGE);
    return ExitCode.verified;
  }
  if (argv.length > 0) {
    io.stderr(`greenfix: unexpected arguments: ${argv.join(' ')}\n\n${SERVE_USAGE}`);
    return ExitCode.usage;
  }
  // The env file setup mode writes (GREENFIX_ENV_FILE, default ./.env); the process's environment wins over it.
  const envFile = resolve(io.cwd, io.env.GREENFIX_ENV_FILE?.trim() || '.env');
  const env = { ...readEnvFile(envFile), ...io.env, ...(role ? { GREENFIX_ROLE: role } : {}) };
  let config: EnvConfig;
  try {
    config = loadEnvConfig(env, { cwd: io.cwd });
  } catch (error) {
    if (!(error instanceof EnvConfigError)) throw error;
    io.stderr(`greenfix: the environment has ${error.problems.length} problem(s):\n${error.problems.map((p) => `  - ${p}`).join('\n')}`);
    return ExitCode.usage;
  }
  if (config.setupMode) return runSetupMode(config, envFile, io);
  const { problems, modelConfig } = startupProblems(config, env, { cwd: io.cwd, envFile });
  if (problems.length > 0) {
    io.stderr(`greenfix: cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return ExitCode.usage;
  }
  try {
    return await serve(config, modelConfig, { ...io, env });
  } catch (error) {
    const refusals = [UsageError, QueueOpenError, RedisQueueOpenError, SandboxUnavailableError, SandboxConfigError];
    if (!refusals.some((type) => error instanceof type)) throw error;
    io.stderr(`greenfix: ${(error as Error).message}`);
    return ExitCode.usage;
  }
}

/** What else must hold before starting: system packages, the model endpoint, a workdir the sandbox reaches. */
function startupProblems(config: EnvConfig, env: CliIo['env'], paths: { cwd: string; envFile: string }): { problems: string[]; modelConfig: ModelConfig | null } {
  const problems = checkSystemPackages({ env, isRoot: process.getuid?.() === 0, sandboxOff: config.sandbox === 'off', images: config.images.defaultImage !== undefined }).map((m) => m.message);
  if (config.role !== 'receiver') {
    const unreachable = config.sandbox === 'off' ? null : workdirProblem(config.workdir, sandboxFileOwner());
    if (unreachable) problems.push(unreachable);
    const auth = config.images.authFile;
    if (auth && !isReadable(auth)) problems.push(`GREENFIX_REGISTRY_AUTH_FILE: ${auth} cannot be read (the registries' credentials for environment images)`);
    const missingKey = missingKeyProblem(config.model);
    if (missingKey) problems.push(missingKey);
    if (config.sandbox !== 'off') problems.push(...appPathsInBoundDirs(appPaths(config, paths), boundDirs(parseReadOnlyPaths(env.GREENFIX_SANDBOX_RO_PATHS))));
    try {
      return { problems, modelConfig: modelConfigOf(config.model) };
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems.map((p) => `${error.source}: ${p}`));
    }
  }
  return { problems, modelConfig: null };
}

/** greenfix's own paths, which no sandbox may see: its workdir (jobs, state), queue, .env, key and directory. */
function appPaths(config: EnvConfig, paths: { cwd: string; envFile: string }): AppPath[] {
  return [
    { name: 'GREENFIX_WORKDIR', path: config.workdir },
    ...(config.redisUrl ? [] : [{ name: 'GREENFIX_DB', path: config.db }]),
    ...(config.privateKeyPath ? [{ name: 'PRIVATE_KEY_PATH', path: config.privateKeyPath }] : []),
    { name: 'the .env file', path: paths.envFile },
    { name: "greenfix's working directory", path: paths.cwd },
  ];
}

async function serve(config: EnvConfig, modelConfig: ModelConfig | null, io: CliIo): Promise<number> {
  const log = await createLogger({ level: config.logLevel, ...(config.logFormat ? { format: config.logFormat } : {}) });
  // First: a host whose sandbox cannot start (a container without the flags docs/self-hosting-and-docker.md names) is refused before anything is held.
  const sandbox = await createSandbox({ env: io.env, dataDirs: [config.workdir], log: (level, message) => log[level === 'warn' ? 'warn' : 'info'](message) });
  const lock = config.role === 'receiver' ? null : lockWorkdir(config.workdir);
  const queue = await openQueue(config, log);
  const privateKey = config.privateKey ?? readFileSync(config.privateKeyPath as string, 'utf8');
  const baseUrl = config.gheHost ? `${config.gheProtocol ?? 'https'}://${config.gheHost}/api/v3` : undefined;
  const app = await startApp({
    appId: config.appId as number,
    privateKey,
    secret: config.webhookSecret as string,
    ...(baseUrl ? { baseUrl } : {}),
    host: config.host ?? 'localhost',
    port: config.port,
    role: config.role,
    log,
    queue,
    model: modelConfig ? createChatModel(modelConfig) : placeholderModel(),
    ...(modelConfig ? { prices: modelConfig.prices } : {}),
    sandbox,
    workdir: config.workdir,
    concurrency: config.concurrency,
    jobRetentionMs: config.jobRetentionMs,
    queueRetentionMs: config.queueRetentionMs,
    webhookMaxBytes: config.webhookMaxBytes,
    cacheBytes: config.cacheBytes,
    caps: config.caps,
    setupSecrets: config.setupSecrets,
    // The run log and logs redact the model's key and every setup secret's value.
    redactSecrets: [...(io.env.OPENAI_API_KEY ? [io.env.OPENAI_API_KEY] : []), ...config.setupSecrets.map((s) => s.value)],
    images: { ...config.images, tools: imageToolsOrNull(io.env.PATH) },
    ...(config.publicUrl ? { runPage: { publicUrl: config.publicUrl, key: runLinkKey(config.runLinkSecret, config.webhookSecret as string) } } : {}),
    workerId: lock?.workerId ?? 'receiver',
    wrap: crashWrappers(io.env),
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
  });
  log.info({ url: app.url, role: config.role, concurrency: config.concurrency, db: config.db, workdir: config.workdir }, 'greenfix is running');
  const signal = await waitForSignal();
  log.info({ signal }, 'shutting down: no new jobs; running ones get a grace period, then go back to the queue');
  await app.stop(config.shutdownGraceMs);
  await queue.close();
  lock?.release();
  return ExitCode.verified;
}

/** A receiver never calls the model; this makes a mistake loud instead of silent. */
function placeholderModel() {
  return {
    name: 'none (receiver)',
    complete: () => Promise.reject(new Error('a receiver-only process does not run jobs')),
  };
}

/** skopeo and umoci when both are installed; else null, and a job naming an image is told what to install. */
function imageToolsOrNull(pathValue: string | undefined): ImageTools | null {
  const found = findImageTools(pathValue);
  return 'missing' in found ? null : found;
}

function isReadable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

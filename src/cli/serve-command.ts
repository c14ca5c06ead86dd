import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { run as runProbotSetup } from 'probot';
import { createLogger } from '../app/logger.js';
import { EnvConfigError, loadEnvConfig, type EnvConfig } from '../config/env-config.js';
import { ConfigError } from '../model/config-error.js';
import { createChatModel } from '../model/create-chat-model.js';
import { modelConfigFromEnv } from '../model/model-config.js';
import { openQueue } from './open-queue.js';
import { appPathsInBoundDirs, boundDirs, type AppPath } from '../sandbox/bound-app-paths.js';
import { createSandbox } from '../sandbox/create-sandbox.js';
import { parseReadOnlyPaths } from '../sandbox/read-only-paths.js';
import { sandboxFileOwner } from '../sandbox/ownership.js';
import { checkSystemPackages } from '../sandbox/system-packages.js';
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

Configuration is read from the environment (and .env); see .env.example. Without APP_ID and a
private key, Probot's setup page registers the GitHub App from app.yml.`;

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
  let config: EnvConfig;
  try {
    config = loadEnvConfig(role ? { ...io.env, GREENFIX_ROLE: role } : io.env, { cwd: io.cwd });
  } catch (error) {
    if (!(error instanceof EnvConfigError)) throw error;
    io.stderr(`greenfix: the environment has ${error.problems.length} problem(s):\n${error.problems.map((p) => `  - ${p}`).join('\n')}`);
    return ExitCode.usage;
  }
  if (config.setupMode) {
    io.stderr('greenfix: no APP_ID/PRIVATE_KEY yet: starting the GitHub App setup page (Probot). Follow it, then start greenfix again.');
    await runProbotSetup(() => undefined);
    return waitForSignal().then(() => ExitCode.verified);
  }
  const problems = startupProblems(config, io);
  if (problems.length > 0) {
    io.stderr(`greenfix: cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return ExitCode.usage;
  }
  try {
    return await serve(config, io);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof QueueOpenError || error instanceof RedisQueueOpenError)) throw error;
    io.stderr(`greenfix: ${error.message}`);
    return ExitCode.usage;
  }
}

/** What else must hold before starting: system packages, the model endpoint, a workdir the sandbox reaches. */
function startupProblems(config: EnvConfig, io: CliIo): string[] {
  const problems = checkSystemPackages({ env: io.env, isRoot: process.getuid?.() === 0, sandboxOff: config.sandbox === 'off' }).map((m) => m.message);
  if (config.role !== 'receiver') {
    const unreachable = config.sandbox === 'off' ? null : workdirProblem(config.workdir, sandboxFileOwner());
    if (unreachable) problems.push(unreachable);
    if (config.sandbox !== 'off') problems.push(...appPathsInBoundDirs(appPaths(config, io.cwd), boundDirs(parseReadOnlyPaths(io.env.GREENFIX_SANDBOX_RO_PATHS))));
    try {
      modelConfigFromEnv(io.env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems.map((p) => `${error.source}: ${p}`));
    }
  }
  return problems;
}

/** greenfix's own paths, which no sandbox may see: its workdir (jobs, state), queue, .env, key and directory. */
function appPaths(config: EnvConfig, cwd: string): AppPath[] {
  return [
    { name: 'GREENFIX_WORKDIR', path: config.workdir },
    ...(config.redisUrl ? [] : [{ name: 'GREENFIX_DB', path: config.db }]),
    ...(config.privateKeyPath ? [{ name: 'PRIVATE_KEY_PATH', path: config.privateKeyPath }] : []),
    { name: 'the .env file', path: join(cwd, '.env') },
    { name: "greenfix's working directory", path: cwd },
  ];
}

async function serve(config: EnvConfig, io: CliIo): Promise<number> {
  const log = await createLogger({ level: config.logLevel, ...(config.logFormat ? { format: config.logFormat } : {}) });
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
    model: config.role === 'receiver' ? placeholderModel() : createChatModel(modelConfigFromEnv(io.env)),
    ...(config.role === 'receiver' ? {} : { prices: modelConfigFromEnv(io.env).prices }),
    sandbox: await createSandbox({ env: io.env, dataDirs: [config.workdir], log: (level, message) => log[level === 'warn' ? 'warn' : 'info'](message) }),
    workdir: config.workdir,
    concurrency: config.concurrency,
    jobRetentionMs: config.jobRetentionMs,
    queueRetentionMs: config.queueRetentionMs,
    webhookMaxBytes: config.webhookMaxBytes,
    cacheBytes: config.cacheBytes,
    caps: config.caps,
    ...(io.env.OPENAI_API_KEY ? { redactSecrets: [io.env.OPENAI_API_KEY] } : {}),
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

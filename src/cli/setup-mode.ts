import { readFileSync } from 'node:fs';
import { startSetupServer } from '../app/setup-server.js';
import type { EnvConfig } from '../config/env-config.js';
import { updateEnvFile } from '../config/env-file.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { packageFile } from '../util/package-file.js';
import { waitForSignal } from './signals.js';

/**
 * `greenfix serve` without APP_ID: greenfix's setup page (app/setup-server.ts) until a signal. The
 * credentials go to `envFile` (GREENFIX_ENV_FILE, default ./.env), which `serve` reads when it starts again.
 */
export async function runSetupMode(config: EnvConfig, envFile: string, io: CliIo): Promise<number> {
  const ghes = config.gheHost ? `${config.gheProtocol ?? 'https'}://${config.gheHost}` : null;
  const server = await startSetupServer({
    host: config.host ?? 'localhost',
    port: config.port,
    appYml: readFileSync(packageFile('app.yml'), 'utf8'),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    ...(config.webhookProxyUrl ? { webhookProxyUrl: config.webhookProxyUrl } : {}),
    githubUrl: ghes ?? 'https://github.com',
    apiBaseUrl: ghes ? `${ghes}/api/v3` : 'https://api.github.com',
    saveCredentials: (app) =>
      updateEnvFile(envFile, {
        APP_ID: String(app.id),
        PRIVATE_KEY: app.pem,
        WEBHOOK_SECRET: app.webhook_secret,
        GITHUB_CLIENT_ID: app.client_id,
        GITHUB_CLIENT_SECRET: app.client_secret,
      }),
    log: (message) => io.stderr(`greenfix: ${message}`),
  });
  const where = config.publicUrl ?? config.webhookProxyUrl;
  if (!where) io.stderr('greenfix: GitHub must reach greenfix to deliver webhooks: set up a tunnel first (WEBHOOK_PROXY_URL, e.g. a smee.io channel) or set GREENFIX_PUBLIC_URL, then restart');
  io.stderr(`greenfix: setup mode (no APP_ID yet): open ${server.url}/ to register the GitHub App; its credentials will be written to ${envFile}`);
  const signal = await waitForSignal();
  io.stderr(`greenfix: ${signal}: setup page closed`);
  await server.close();
  return ExitCode.verified;
}

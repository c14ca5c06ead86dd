import { pino, type DestinationStream, type Logger } from 'pino';
import { getTransformStream } from '@probot/pino';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
export type LogFormat = 'json' | 'pretty';

/**
 * Where secrets may sit in a logged object. pino replaces them with `[redacted]` before the
 * line is written: a token must never reach a log, even when someone logs a whole options object
 * or an octokit request. `*` matches one level, so each key is listed at the top and one below.
 */
export const REDACT_KEYS = [
  'token',
  'accessToken',
  'installationToken',
  'privateKey',
  'secret',
  'webhookSecret',
  'apiKey',
  'password',
  'PRIVATE_KEY',
  'WEBHOOK_SECRET',
  'OPENAI_API_KEY',
] as const;

const HEADER_PATHS = ['headers.authorization', 'req.headers.authorization', 'request.headers.authorization'];

export const REDACT_PATHS: string[] = [
  ...REDACT_KEYS,
  ...REDACT_KEYS.map((key) => `*.${key}`),
  ...HEADER_PATHS,
  ...HEADER_PATHS.map((path) => `*.${path}`),
  'env.OPENAI_API_KEY',
  'env.PRIVATE_KEY',
  'env.WEBHOOK_SECRET',
];

export const REDACTED = '[redacted]';

export interface LoggerOptions {
  level?: LogLevel;
  /** `pretty` for a terminal, `json` (default) for a log collector. */
  format?: LogFormat;
  /** Where lines go; default stdout. Tests pass a stream they read. */
  destination?: DestinationStream;
}

/**
 * greenfix's logger when it does not run inside Probot's (`greenfix worker`, or handed to Probot's
 * `Server` as `log` so webhook logs are redacted too). Same look as Probot's: `@probot/pino`.
 */
export async function createLogger(options: LoggerOptions = {}): Promise<Logger> {
  const base = {
    name: 'greenfix',
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: REDACTED },
  };
  const destination = options.destination ?? pino.destination(1);
  if ((options.format ?? 'json') === 'json') return pino(base, destination);
  const transform = await getTransformStream({ logFormat: 'pretty' });
  transform.pipe(destination as NodeJS.WritableStream);
  return pino(base, transform);
}

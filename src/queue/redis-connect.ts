import { Redis } from 'ioredis';

/** Why the Redis queue could not start; the message names the server (password removed). */
export class RedisQueueOpenError extends Error {
  override readonly name = 'RedisQueueOpenError';
  readonly kind = 'unreachable' as const;
  constructor(
    readonly url: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot reach the Redis queue at ${url}: ${detail} (check REDIS_URL and that Redis is running)`, options);
  }
}

/** REDIS_URL without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}

/**
 * Connects and waits for the first PING, so a wrong URL fails at startup instead of at the first
 * webhook: no retries until then. Afterwards ioredis reconnects by itself (a restarted Redis),
 * queueing commands while it does; `onError` sees connection errors that would otherwise be
 * printed as unhandled.
 */
export async function connectRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  let ready = false;
  let lastError: unknown;
  const redis = new Redis(url, { lazyConnect: true, retryStrategy: (times) => (ready ? Math.min(times * 50, 2_000) : null) });
  redis.on('error', (error: Error) => {
    lastError = error;
    if (ready) onError(error);
  });
  try {
    await redis.connect();
    await redis.ping();
    ready = true;
    return redis;
  } catch (error) {
    // On a closed stream, disconnect() would arm a 2 s timer nothing clears (ioredis' AbstractConnector).
    if (redis.status !== 'end') redis.disconnect();
    const cause = lastError ?? error;
    const detail = (cause as { code?: unknown }).code ?? (cause instanceof Error ? cause.message : 'error');
    throw new RedisQueueOpenError(redactRedisUrl(url), String(detail), { cause });
  }
}

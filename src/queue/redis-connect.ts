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
 * webhook. Afterwards ioredis reconnects by itself (a restarted Redis), queueing commands while
 * it does; `onError` sees connection errors that would otherwise be printed as unhandled.
 */
export async function connectRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true });
  redis.on('error', onError);
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    const detail = (error as { code?: unknown }).code ?? (error instanceof Error ? error.name : 'error');
    throw new RedisQueueOpenError(redactRedisUrl(url), String(detail), { cause: error });
  }
}

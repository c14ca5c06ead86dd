/** The part of a `Headers` object this needs; keeps the parser independent of any HTTP client. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait the server asked for, in ms: `retry-after-ms` (OpenAI, Azure) first, then `Retry-After`
 * as seconds or as an HTTP date. Undefined when absent or unreadable, so backoff applies instead.
 */
export function parseRetryAfterMs(headers: HeaderSource | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

import { EnvSchema } from './env-schema.js';

/** GREENFIX_CACHE_MB's default: 5 GiB of installed dependencies per workdir. */
export const DEFAULT_CACHE_MB = 5120;

/**
 * GREENFIX_CACHE_MB alone (the local CLI reads no other server variable): bytes, or the rule's
 * message. Apart from env-config.ts, so `greenfix fix` does not load the server's configuration
 * (setup secrets and their YAML parser) to read one number.
 */
export function cacheBytesFromEnv(env: Readonly<Record<string, string | undefined>>): number | string {
  const parsed = EnvSchema.shape.GREENFIX_CACHE_MB.safeParse(env.GREENFIX_CACHE_MB);
  if (!parsed.success) return `GREENFIX_CACHE_MB ${parsed.error.issues[0]?.message ?? 'is not valid'}`;
  return (parsed.data ?? DEFAULT_CACHE_MB) * 1024 * 1024;
}

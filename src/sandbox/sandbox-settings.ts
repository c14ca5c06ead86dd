import * as z from 'zod';
import { SandboxConfigError } from './errors.js';
import { parseUidRange, type UidRange } from './uid-range.js';

/** The resource settings of the sandbox, from the environment (also checked by config/env-schema.ts at startup). */
export interface SandboxSettings {
  uids: UidRange;
  memoryMb: number;
  processes: number;
  diskMb: number;
}

export const SETTING_BOUNDS = {
  GREENFIX_SANDBOX_MEMORY_MB: { min: 64, max: 1_048_576, fallback: 4096 },
  GREENFIX_SANDBOX_PIDS: { min: 16, max: 4_194_304, fallback: 1024 },
  GREENFIX_SANDBOX_DISK_MB: { min: 1, max: 16_777_216, fallback: 10240 },
} as const;

type Name = keyof typeof SETTING_BOUNDS;

function whole(env: Record<string, string | undefined>, name: Name): number {
  const { min, max, fallback } = SETTING_BOUNDS[name];
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return fallback;
  const parsed = z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max)).safeParse(raw);
  if (!parsed.success) throw new SandboxConfigError('bad-limit', `${name}=${raw}: must be a whole number from ${min} to ${max}`);
  return parsed.data;
}

/** Validates GREENFIX_SANDBOX_UIDS, _MEMORY_MB, _PIDS and _DISK_MB; unset or blank means the default. */
export function parseSandboxSettings(env: Record<string, string | undefined>): SandboxSettings {
  return {
    uids: parseUidRange(env.GREENFIX_SANDBOX_UIDS),
    memoryMb: whole(env, 'GREENFIX_SANDBOX_MEMORY_MB'),
    processes: whole(env, 'GREENFIX_SANDBOX_PIDS'),
    diskMb: whole(env, 'GREENFIX_SANDBOX_DISK_MB'),
  };
}

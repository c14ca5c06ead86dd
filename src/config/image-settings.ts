import { resolve } from 'node:path';
import { EnvSchema, type ParsedEnv } from './env-schema.js';

/** The operator's settings for environment images (docs/configuration.md). */
export interface ImageSettings {
  /** GREENFIX_DEFAULT_IMAGE: the image of a repository that names none; absent: the host's userland. */
  defaultImage?: string;
  /** GREENFIX_REGISTRY_AUTH_FILE, absolute: credentials per registry host (containers-auth.json); absent: anonymous. */
  authFile?: string;
  /** GREENFIX_INSECURE_REGISTRIES: hosts reached over plain HTTP besides loopback. */
  insecureRegistries: string[];
  /** GREENFIX_IMAGE_CACHE_MB in bytes: the unpacked images' cap (`<workdir>/images`). */
  cacheBytes: number;
}

/** 20 GiB: a handful of language images. */
export const DEFAULT_IMAGE_CACHE_MB = 20_480;

type ImageVars = Pick<ParsedEnv, 'GREENFIX_DEFAULT_IMAGE' | 'GREENFIX_REGISTRY_AUTH_FILE' | 'GREENFIX_INSECURE_REGISTRIES' | 'GREENFIX_IMAGE_CACHE_MB'>;

export function imageSettingsOf(v: ImageVars, cwd: string): ImageSettings {
  return {
    ...(v.GREENFIX_DEFAULT_IMAGE ? { defaultImage: v.GREENFIX_DEFAULT_IMAGE } : {}),
    ...(v.GREENFIX_REGISTRY_AUTH_FILE ? { authFile: resolve(cwd, v.GREENFIX_REGISTRY_AUTH_FILE) } : {}),
    insecureRegistries: (v.GREENFIX_INSECURE_REGISTRIES ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    cacheBytes: (v.GREENFIX_IMAGE_CACHE_MB ?? DEFAULT_IMAGE_CACHE_MB) * 1024 * 1024,
  };
}

/** The image variables alone (the local CLI reads no other server variable): the settings, or the first rule's message. */
export function imageSettingsFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): ImageSettings | string {
  const picked = EnvSchema.pick({ GREENFIX_DEFAULT_IMAGE: true, GREENFIX_REGISTRY_AUTH_FILE: true, GREENFIX_INSECURE_REGISTRIES: true, GREENFIX_IMAGE_CACHE_MB: true });
  const parsed = picked.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${String(issue?.path[0] ?? 'an image variable')} ${issue?.message ?? 'is not valid'}`;
  }
  return imageSettingsOf(parsed.data, cwd);
}

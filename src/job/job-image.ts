import type { RepoConfig } from '../config/repo-config.js';
import { NO_IMAGES } from '../image/image-cache.js';
import { prepareJobEnvironment, type JobEnvironment } from '../image/job-environment.js';
import type { JobEnv } from './env.js';

/**
 * A job's environment image (image/job-environment.ts: greenfix.yml, devcontainer.json, the
 * operator's default), pulled and pinned by digest and held until `release`; null: the host's
 * userland. A deployment without images tells a repository that names one so (NO_IMAGES).
 */
export function jobImage(
  input: { env: JobEnv; config: RepoConfig; signal: AbortSignal },
  worktree: string,
  pinned?: { reference: string; digest: string },
): Promise<JobEnvironment | null> {
  const images = input.env.images ?? { cache: NO_IMAGES };
  const options = { configured: input.config.environment.image, worktree, operatorDefault: images.defaultImage, signal: input.signal };
  return prepareJobEnvironment(images.cache, pinned ? { ...options, pinned } : options);
}

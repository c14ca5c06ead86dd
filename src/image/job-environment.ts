import { devcontainerImage } from './devcontainer-image.js';
import type { ImageCache, PreparedImage } from './image-cache.js';

/** Where a job's image was named. */
export type ImageSource = '.github/greenfix.yml' | '.devcontainer/devcontainer.json' | '.devcontainer.json' | 'GREENFIX_DEFAULT_IMAGE';

export interface ImageChoice {
  reference: string;
  source: ImageSource;
}

/** A job's environment, pulled and held: the image and where it was named. */
export type JobEnvironment = PreparedImage & { source: ImageSource };

/**
 * Which image a fix runs in: the repository's `environment.image`, else its devcontainer.json's
 * `image`, else the operator's GREENFIX_DEFAULT_IMAGE; null: the host's userland, as before images.
 */
export function chooseImage(input: { configured: string | undefined; worktree: string; operatorDefault: string | undefined }): ImageChoice | null {
  if (input.configured) return { reference: input.configured, source: '.github/greenfix.yml' };
  const devcontainer = devcontainerImage(input.worktree);
  if (devcontainer) return { reference: devcontainer.reference, source: devcontainer.file as ImageSource };
  if (input.operatorDefault) return { reference: input.operatorDefault, source: 'GREENFIX_DEFAULT_IMAGE' };
  return null;
}

/** Chooses the image and prepares it (pulled and unpacked once per digest); null: none is named. */
export async function prepareJobEnvironment(
  cache: ImageCache,
  input: { configured: string | undefined; worktree: string; operatorDefault: string | undefined; signal?: AbortSignal; pinned?: { reference: string; digest: string } },
): Promise<JobEnvironment | null> {
  const choice = chooseImage(input);
  if (!choice) return null;
  // A resumed job keeps the digest its first attempt ran on, as long as it still names the same image.
  const pinned = input.pinned?.reference === choice.reference ? input.pinned.digest : undefined;
  const image = await cache.prepare(choice.reference, input.signal, pinned);
  return { ...image, source: choice.source };
}

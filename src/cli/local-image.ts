import { join } from 'node:path';
import { imageSettingsFromEnv } from '../config/image-settings.js';
import { RepoConfigSchema } from '../config/repo-config.js';
import { ImageError } from '../image/image-error.js';
import { chooseImage, prepareJobEnvironment, type JobEnvironment } from '../image/job-environment.js';
import { readRegularText, RegularFileError } from '../util/regular-file.js';
import { UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';

/**
 * The environment image of a local run, as a job chooses it (image/job-environment.ts): the
 * worktree's `.github/greenfix.yml` `environment.image`, its devcontainer.json, or
 * GREENFIX_DEFAULT_IMAGE; pulled into `<workdir>/images`. Null: the host's userland.
 */
export async function localImage(io: CliIo, workdir: string, worktree: string): Promise<JobEnvironment | null> {
  const settings = imageSettingsFromEnv(io.env, io.cwd);
  if (typeof settings === 'string') throw new UsageError(settings);
  const wanted = { configured: await configuredImage(worktree), worktree, operatorDefault: settings.defaultImage };
  // The image cache (skopeo, umoci, layer checks) loads only when an image is named: most runs use the host's userland.
  if (!chooseImage(wanted)) return null;
  const [{ createImageCache }, { findImageTools }] = await Promise.all([import('../image/image-cache.js'), import('../image/image-tools.js')]);
  const found = findImageTools(io.env.PATH);
  const cache = createImageCache({
    dir: join(workdir, 'images'),
    capBytes: settings.cacheBytes,
    tools: 'missing' in found ? null : found,
    access: { authFile: settings.authFile ?? null, insecureRegistries: settings.insecureRegistries },
  });
  const image = await prepareJobEnvironment(cache, wanted);
  if (image) io.stderr(`greenfix: environment: ${image.reference} (${image.digest}) from ${image.source}${image.pulled ? ', pulled and unpacked' : ', cached'}`);
  return image;
}

/**
 * `environment.image` of the worktree's `.github/greenfix.yml` (the one key the local run reads
 * from it). The YAML parser loads only when there is a file to parse (~80 modules: most
 * repositories have none, and it was a tenth of `greenfix fix`'s start).
 */
async function configuredImage(worktree: string): Promise<string | undefined> {
  let text: string | null;
  try {
    text = readRegularText(worktree, '.github/greenfix.yml', 1024 * 1024);
  } catch (error) {
    if (error instanceof RegularFileError) return undefined;
    throw error;
  }
  if (text === null) return undefined;
  const { parse } = await import('yaml');
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new ImageError('bad-reference', `.github/greenfix.yml is not valid YAML: ${(error as Error).message}`);
  }
  const environment = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).environment : undefined;
  if (environment === undefined) return undefined;
  const parsed = RepoConfigSchema.shape.environment.safeParse(environment);
  if (!parsed.success) throw new ImageError('bad-reference', `.github/greenfix.yml environment: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`).join('; ')}`);
  return parsed.data.image;
}

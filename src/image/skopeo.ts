import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { ImageError } from './image-error.js';
import { isLoopbackRegistry, transportName, type ImageReference } from './image-reference.js';
import type { RegistryAccess } from './registry-access.js';

/** What skopeo needs: the executable, an empty HOME (no user's docker config is read), the operator's access. */
export interface SkopeoContext {
  skopeo: string;
  home: string;
  access: RegistryAccess;
  signal?: AbortSignal;
}

/** A pull of a big image on a slow link; a failure bound, not a pace. */
const PULL_LIMIT_MS = 15 * 60_000;
const INSPECT_LIMIT_MS = 60_000;

/**
 * The digest a reference names now: sha256 of the manifest (or manifest list) the registry serves,
 * computed here from its raw bytes, so what is pinned is what was read. A reference that already
 * carries a digest is still read, so an absent image fails here with the registry's answer.
 */
export async function resolveDigest(ref: ImageReference, context: SkopeoContext): Promise<string> {
  const raw = await skopeo(context, ref, ['inspect', '--raw', ...tlsFlags(ref, context.access, ''), ...authFlags(context.access, ''), transportName(ref)], INSPECT_LIMIT_MS);
  const digest = `sha256:${createHash('sha256').update(raw).digest('hex')}`;
  if (ref.digest && ref.digest !== digest) {
    throw new ImageError('pull-failed', `${ref.text}: the registry served a manifest with digest ${digest}, not the one named`);
  }
  return digest;
}

/** Copies the image pinned at `digest` (this host's platform) into an OCI layout at `layout`, tagged `tag`. */
export async function copyToLayout(ref: ImageReference, digest: string, layout: string, tag: string, context: SkopeoContext): Promise<void> {
  const args = ['copy', '--quiet', ...tlsFlags(ref, context.access, 'src-'), ...authFlags(context.access, 'src-'), transportName(ref, digest), `oci:${layout}:${tag}`];
  await skopeo(context, ref, args, PULL_LIMIT_MS);
}

function tlsFlags(ref: ImageReference, access: RegistryAccess, prefix: string): string[] {
  const insecure = isLoopbackRegistry(ref.registry) || access.insecureRegistries.includes(ref.registry);
  return insecure ? [`--${prefix}tls-verify=false`] : [];
}

function authFlags(access: RegistryAccess, prefix: string): string[] {
  return access.authFile ? [`--${prefix}authfile`, access.authFile] : [`--${prefix}no-creds`];
}

function skopeo(context: SkopeoContext, ref: ImageReference, args: string[], timeout: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      context.skopeo,
      args,
      {
        encoding: 'buffer',
        maxBuffer: 16 * 1024 * 1024,
        timeout,
        // Nothing of greenfix's environment: no proxy credentials, no XDG_RUNTIME_DIR auth.json, no ~/.docker.
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: context.home },
        ...(context.signal ? { signal: context.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const said = stderr.toString('utf8').trim().split('\n').filter(Boolean).pop() ?? error.message;
        const hint =
          /unauthorized|authentication required|denied/i.test(said) && !context.access.authFile
            ? `; a private registry needs credentials for ${ref.registry} in the operator's GREENFIX_REGISTRY_AUTH_FILE (docs/configuration.md)`
            : '';
        reject(new ImageError('pull-failed', `could not pull ${ref.text} from ${ref.registry}: ${said.replace(/^time="[^"]*" level=\w+ msg="?/, '').replace(/"$/, '')}${hint}`));
      },
    );
  });
}

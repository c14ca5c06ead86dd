import { join } from 'node:path';
import { overlaps } from './app-dirs.js';

/**
 * Where users keep credentials, relative to their home: never shown to the sandbox, nor anything
 * containing one of them (the home itself among others). Checked by path, whether or not they exist.
 */
export const CREDENTIAL_PATHS = [
  '.ssh', '.aws', '.azure', '.config/gcloud', '.kube', '.docker', '.gnupg', '.password-store',
  '.config/gh', '.config/hub', '.config/git/credentials', '.git-credentials', '.netrc', '.npmrc', '.yarnrc', '.yarnrc.yml',
  '.pypirc', '.config/pip', '.pip', '.gem/credentials', '.m2/settings.xml', '.gradle/gradle.properties',
  '.cargo/credentials', '.cargo/credentials.toml', '.terraform.d', '.local/share/keyrings', '.config/keyrings',
  '.pki', '.vault-token', '.config/containers/auth.json', '.env',
];

/** The credential location `path` is, contains or lies in (under `home`); null when it touches none. */
export function credentialOverlap(path: string, home: string | null): string | null {
  if (!home) return null;
  for (const relative of CREDENTIAL_PATHS) {
    const location = join(home, relative);
    if (overlaps(path, location)) return location;
  }
  return null;
}

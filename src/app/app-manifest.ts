import { parse } from 'yaml';

/**
 * The fields GitHub's manifest flow accepts ("Registering a GitHub App from a manifest",
 * docs.github.com): anything else in app.yml would be ignored by GitHub or refused.
 */
export const MANIFEST_FIELDS = [
  'name',
  'url',
  'hook_attributes',
  'redirect_url',
  'callback_urls',
  'setup_url',
  'description',
  'public',
  'default_events',
  'default_permissions',
  'request_oauth_on_install',
  'setup_on_update',
] as const;

/** Where this server answers: set by the setup page, never by app.yml. */
export interface ManifestUrls {
  /** Where GitHub delivers webhooks: the tunnel or public URL + `/api/github/webhooks`. */
  webhookUrl: string;
  /** Where GitHub sends the browser back with the code (`<base>/probot/setup`). */
  redirectUrl: string;
}

export class AppManifestError extends Error {}

/** app.yml (YAML) with the URLs of this server: the JSON object the setup page posts to GitHub. */
export function appManifest(appYml: string, urls: ManifestUrls): Record<string, unknown> {
  const parsed: unknown = parse(appYml);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppManifestError('app.yml: not a mapping of manifest fields');
  const fields = parsed as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !(MANIFEST_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new AppManifestError(`app.yml: not a field of a GitHub App manifest: ${unknown.join(', ')}`);
  for (const set of ['hook_attributes', 'redirect_url'] as const) {
    if (set in fields) throw new AppManifestError(`app.yml: ${set} is set by the setup page (the server's own URL), not here`);
  }
  if (typeof fields.name !== 'string' || typeof fields.url !== 'string') throw new AppManifestError('app.yml: name and url are required');
  return { ...fields, hook_attributes: { url: urls.webhookUrl, active: true }, redirect_url: urls.redirectUrl };
}

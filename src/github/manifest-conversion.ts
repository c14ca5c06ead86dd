/** What GitHub answers for a manifest code: the new app's id and secrets. */
export interface ConvertedApp {
  id: number;
  html_url: string;
  pem: string;
  webhook_secret: string;
  client_id: string;
  client_secret: string;
}

export class ManifestConversionError extends Error {}

/**
 * `POST /app-manifests/{code}/conversions` (no authentication: the code is the credential, valid for
 * an hour): turns the code GitHub sent the browser back with into the registered app's credentials.
 */
export async function convertManifestCode(apiBaseUrl: string, code: string): Promise<ConvertedApp> {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(code)) throw new ManifestConversionError('the code is not one GitHub sends');
  const res = await fetch(`${apiBaseUrl.replace(/\/+$/, '')}/app-manifests/${code}/conversions`, {
    method: 'POST',
    headers: { accept: 'application/vnd.github+json', 'user-agent': 'greenfix-setup' },
  });
  if (!res.ok) throw new ManifestConversionError(`GitHub answered ${res.status} to the manifest code (it is valid for one hour and one use)`);
  const app = (await res.json()) as Partial<ConvertedApp>;
  if (typeof app.id !== 'number' || typeof app.pem !== 'string' || typeof app.webhook_secret !== 'string' || typeof app.html_url !== 'string') {
    throw new ManifestConversionError('GitHub answered without the app id, key or webhook secret');
  }
  return { id: app.id, html_url: app.html_url, pem: app.pem, webhook_secret: app.webhook_secret, client_id: app.client_id ?? '', client_secret: app.client_secret ?? '' };
}

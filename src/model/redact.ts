/** Removes the API key from text that came from the server (some echo the key back on 401). */
export function redactSecret(text: string, secret: string): string {
  return secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}

/** The endpoint as it may appear in messages and logs: no user:password, no query string. */
export function describeEndpoint(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(unparseable base URL)';
  }
}

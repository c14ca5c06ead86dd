/** What the setup page shows. */
export interface SetupPageInput {
  name: string;
  description: string;
  /** GitHub's "new app from a manifest" URL the form posts to. */
  createAppUrl: string;
  /** The manifest as JSON text (app-manifest.ts). */
  manifest: string;
  webhookUrl: string;
  /** True when GitHub cannot reach `webhookUrl` (localhost: no tunnel or public URL configured). */
  webhookUnreachable: boolean;
}

/** Escapes text for an HTML text node or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * greenfix's setup page (served in setup mode instead of Probot's, whose button carries the manifest
 * in a single-quoted attribute that an apostrophe in the description cuts): the manifest is in a
 * double-quoted attribute with every special character escaped, so the posted value is the JSON.
 */
export function renderSetupPage(p: SetupPageInput): string {
  const tunnel = p.webhookUnreachable
    ? `<p class="warn"><strong>First, a tunnel:</strong> GitHub must reach this server to deliver webhooks, and
${escapeHtml(p.webhookUrl)} is not reachable from GitHub. Start a tunnel to this port (for example a
<a href="https://smee.io/new">smee.io channel</a> and <code>npx smee-client --url https://smee.io/… --target http://localhost:3000/api/github/webhooks</code>),
set <code>WEBHOOK_PROXY_URL</code> to the channel (or <code>GREENFIX_PUBLIC_URL</code> to the public address), restart greenfix and reload this page.
You can also change the webhook URL in the app's settings on GitHub later.</p>`
    : `<p>GitHub will deliver webhooks to <code>${escapeHtml(p.webhookUrl)}</code>.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Set up ${escapeHtml(p.name)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5}.warn{border-left:4px solid #d4a72c;padding-left:1rem}button{font-size:1.1rem;padding:.5rem 1rem}</style>
</head>
<body>
<h1>Set up ${escapeHtml(p.name)}</h1>
<p>${escapeHtml(p.description)}</p>
${tunnel}
<h2>Register the GitHub App</h2>
<p>The button registers a private GitHub App with greenfix's permissions and events (app.yml). GitHub then
sends you back here; greenfix writes <code>APP_ID</code>, <code>PRIVATE_KEY</code> and <code>WEBHOOK_SECRET</code> to its
env file and takes you to install the app on your repositories. Then add the model endpoint
(<code>OPENAI_API_KEY</code>, …) and restart greenfix.</p>
<form action="${escapeHtml(p.createAppUrl)}" method="post">
<input type="hidden" name="manifest" value="${escapeHtml(p.manifest)}">
<button type="submit" id="register">Register GitHub App</button>
</form>
</body>
</html>
`;
}

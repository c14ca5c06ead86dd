import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed links to a job's run page: `/runs/<job id>?exp=<unix s>&sig=<HMAC-SHA256>`. The key is
 * GREENFIX_RUN_LINK_SECRET, or one derived from the webhook secret (never the secret itself).
 */
export interface RunLinkKey {
  key: Buffer;
}

export function runLinkKey(secret: string | undefined, webhookSecret: string): RunLinkKey {
  if (secret && secret.length > 0) return { key: Buffer.from(secret, 'utf8') };
  return { key: createHmac('sha256', webhookSecret).update('greenfix run link v1').digest() };
}

function signature(k: RunLinkKey, jobId: string, exp: number): string {
  return createHmac('sha256', k.key).update(`${jobId}\n${exp}`).digest('base64url');
}

/** The path and query of a signed link valid until `expiresAtMs`. */
export function signRunPath(k: RunLinkKey, jobId: string, expiresAtMs: number): string {
  const exp = Math.floor(expiresAtMs / 1000);
  return `/runs/${encodeURIComponent(jobId)}?exp=${exp}&sig=${signature(k, jobId, exp)}`;
}

export type RunLinkCheck = { ok: true; jobId: string } | { ok: false };

/** Checks a request's path and query; anything unsigned, expired, malformed or tampered is `ok: false`. */
export function checkRunLink(k: RunLinkKey, pathname: string, query: URLSearchParams, nowMs: number): RunLinkCheck {
  const m = /^\/runs\/([A-Za-z0-9_-]{1,100})$/.exec(pathname);
  const exp = query.get('exp');
  const sig = query.get('sig');
  if (!m?.[1] || !exp || !/^\d{1,12}$/.test(exp) || !sig) return { ok: false };
  const jobId = m[1];
  const expected = Buffer.from(signature(k, jobId, Number(exp)));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false };
  if (Number(exp) * 1000 <= nowMs) return { ok: false };
  return { ok: true, jobId };
}

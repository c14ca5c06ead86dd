import type { ProbotOctokit } from 'probot';
import { call } from './errors.js';

/** What an installation token may touch: repositories by id, and (optionally) fewer permissions. */
export interface TokenScope {
  /** Omitted: every repository of the installation (then `permissions` should be narrow). */
  repositoryIds?: number[];
  /** Omitted: the installation's permissions, on those repositories only. */
  permissions?: Record<string, 'read' | 'write'>;
}

/** The scope of greenfix's git token: one repository, contents only (fetch and push). */
export function gitTokenScope(repositoryId: number): TokenScope {
  return { repositoryIds: [repositoryId], permissions: { contents: 'write' } };
}

/** The scope of a job's REST calls: the one repository, with the app's permissions. */
export function restTokenScope(repositoryId: number): TokenScope {
  return { repositoryIds: [repositoryId] };
}

/**
 * The scope of reading `.github/greenfix.yml`: Probot's config reader also looks in the owner's
 * `.github` repository (organisation defaults), whose id greenfix does not know, so this token
 * covers the installation's repositories, but may only read their contents.
 */
export const CONFIG_TOKEN_SCOPE: TokenScope = { permissions: { contents: 'read' } };

export interface MintedToken {
  token: string;
  /** ISO time, as GitHub answers it. */
  expiresAt: string;
}

/**
 * A new installation token for `scope`: `POST /app/installations/<id>/access_tokens` with
 * `repository_ids` and `permissions`, sent through the installation client, whose auth hook signs
 * app routes with the app's JWT and whose base URL is the right one (GHES too; octokit's own
 * `auth({ type: 'installation', … })` would ask api.github.com). octokit's token cache is not
 * involved: `renewingToken` decides when to ask again, on an injectable clock.
 */
export async function mintInstallationToken(octokit: ProbotOctokit, installationId: number, scope: TokenScope): Promise<MintedToken> {
  const { data } = await call('installation token', () =>
    octokit.request('POST /app/installations/{installation_id}/access_tokens', {
      installation_id: installationId,
      ...(scope.repositoryIds ? { repository_ids: scope.repositoryIds } : {}),
      ...(scope.permissions ? { permissions: scope.permissions } : {}),
    }),
  );
  if (typeof data.token !== 'string' || data.token === '') throw new Error('installation auth returned no token');
  return { token: data.token, expiresAt: typeof data.expires_at === 'string' ? data.expires_at : '' };
}

export interface RenewingTokenOptions {
  mint: () => Promise<MintedToken>;
  now: () => number;
  /** A token this close to its expiry is replaced before use (default 10 minutes: a long push fits). */
  renewBeforeMs?: number;
}

export const DEFAULT_RENEW_BEFORE_MS = 10 * 60_000;

/**
 * A token that is always valid when handed out: kept in memory only (never written anywhere),
 * replaced once it is within `renewBeforeMs` of its expiry, one request at a time however many
 * callers ask together. An expiry GitHub did not state counts as now (the token is not reused).
 */
export function renewingToken(options: RenewingTokenOptions): () => Promise<string> {
  const renewBefore = options.renewBeforeMs ?? DEFAULT_RENEW_BEFORE_MS;
  let current: { token: string; expiresAtMs: number } | null = null;
  let pending: Promise<string> | null = null;
  return () => {
    if (current && current.expiresAtMs - options.now() > renewBefore) return Promise.resolve(current.token);
    pending ??= options
      .mint()
      .then((minted) => {
        const expiresAtMs = Date.parse(minted.expiresAt);
        current = { token: minted.token, expiresAtMs: Number.isFinite(expiresAtMs) ? expiresAtMs : options.now() };
        return minted.token;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  };
}

import { RequestError } from '@octokit/request-error';
import { GitHubError, retryAfterMs, toGitHubError } from '../../src/github/errors.js';

const request = { method: 'POST' as const, url: 'https://api.github.com/x', headers: { authorization: 'token secret-token-123' } };
const withResponse = (status: number, headers: Record<string, string> = {}) =>
  new RequestError('msg', status, { request, response: { status, url: request.url, headers, data: {} } });

describe('toGitHubError', () => {
  it.each([
    [404, {}, 'not_found'],
    [410, {}, 'not_found'],
    [401, {}, 'forbidden'],
    [403, {}, 'forbidden'],
    [403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '100' }, 'rate_limited'],
    [403, { 'retry-after': '60' }, 'rate_limited'],
    [429, {}, 'rate_limited'],
    [422, {}, 'validation'],
    [500, {}, 'server'],
    [502, {}, 'server'],
  ] as const)('%d %j → %s', (status, headers, kind) => {
    const err = toGitHubError(withResponse(status, headers), 'call', 0);
    expect(err).toBeInstanceOf(GitHubError);
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
  });

  it('a RequestError without a response is a network error (octokit says 500 for those)', () => {
    const err = toGitHubError(new RequestError('socket hang up', 500, { request }), 'call');
    expect(err).toMatchObject({ kind: 'network', status: undefined, transient: true });
  });

  it('never carries the token, and says which call failed', () => {
    const err = toGitHubError(withResponse(500), 'create comment');
    expect(err.message).toBe('create comment: GitHub answered 500');
    expect(JSON.stringify(err)).not.toContain('secret-token');
    expect(String(err.stack)).not.toContain('secret-token');
  });

  it('transient only for server, rate limit and network', () => {
    expect(new GitHubError('server', '').transient).toBe(true);
    expect(new GitHubError('rate_limited', '').transient).toBe(true);
    expect(new GitHubError('validation', '').transient).toBe(false);
    expect(new GitHubError('not_found', '').transient).toBe(false);
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after seconds, else the rate-limit reset', () => {
    expect(retryAfterMs({ 'retry-after': '7' }, 0)).toBe(7000);
    expect(retryAfterMs({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '20' }, 15_000)).toBe(5000);
    expect(retryAfterMs({ 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '20' }, 0)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' }, 0)).toBeUndefined();
  });
});
